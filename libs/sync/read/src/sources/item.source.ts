import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { JsonTexts, ResourceSource } from './resource-source';
import { type Item, ItemRepository, type ItemRow, type MembershipChanges, NoteRepository, type ObjectJsonSql } from '@doable/sync-domain';


@Injectable()
export class ItemSource implements ResourceSource<'items'> {
  readonly type = 'items' as const;

  constructor(
    private readonly items: ItemRepository,
    private readonly notes: NoteRepository,
  ) {}

  /**
   * Active tasks with their comment counts: one grouped count for the whole account. Their
   * timestamps come as wire text: every dialect only writes a full sync's tasks out.
   */
  async listActive(manager: EntityManager, userId: string): Promise<ItemRow[]> {
    const [items, counts] = await Promise.all([this.items.listActiveWire(manager, userId), this.notes.countByTask(manager, userId)]);
    return withNoteCounts(items, counts);
  }

  /** listActive written by PostgreSQL with the dialect's task (`items` and `day_orders`), the comments counted as above. */
  listActiveJson(manager: EntityManager, userId: string, task: ObjectJsonSql): Promise<JsonTexts | undefined> {
    return this.items.listActiveJson(manager, userId, task);
  }

  /** Changed tasks with their comment counts (a count changes with the comment, not the task). */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Item[]> {
    const items = await this.items.listChangedSince(manager, userId, version, memberships);
    return withNoteCounts(items, await this.notes.countByTask(manager, userId, items.map((item) => item.id)));
  }
}

function withNoteCounts<T extends ItemRow>(items: T[], counts: ReadonlyMap<string, number>): T[] {
  for (const item of items) item.note_count = counts.get(item.id) ?? 0;
  return items;
}
