import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompiledFilter } from '@doable/sync-filter-language';
import { ITEM_COLUMNS, type Item } from '../items/item.model';
import type { CompletedPosition } from './completed-cursor';
import type { CompletedQuery, CompletedSearch, GetAllQuery } from './completed-query';
import { inVisibleProjects } from '../membership/membership';

/**
 * Completed tasks of projects the user can see, over `sync.items AS item` ($1 is the user id):
 * the user's checked tasks in one scan of the completed index over every visible project, then
 * the newest of them. Written `IN (memberships)`, beside a 50,000-task account the planner
 * scanned every account's tasks for a page of 50 (43 ms of PostgreSQL against 5; issue #48).
 */
const COMPLETED_VISIBLE = `${inVisibleProjects('item.project_id')} AND item.checked AND NOT item.is_deleted`;

/** Bind values after a given first list (the user id, or a compiled filter's own values). */
class Binds {
  readonly values: unknown[];

  constructor(first: readonly unknown[]) {
    this.values = [...first];
  }

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `text` as a case-insensitive substring pattern: LIKE's own metacharacters match themselves. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** Completed tasks of the projects a user can see, newest first, paged by keyset. */
@Injectable()
export class CompletedRepository {
  /**
   * One page in a date window, plus one row to tell whether another page exists. A filter (the
   * filter language compiled over `sync.items AS item`) narrows the window in the same query.
   */
  async inWindow(manager: EntityManager, userId: string, query: CompletedQuery, after: CompletedPosition | null, filter: CompiledFilter | null = null): Promise<Item[]> {
    // The filter's values come first, so its placeholders stay as compiled ($1 is the user id in both).
    const binds = new Binds(filter ? filter.params : [userId]);
    const since = binds.add(query.since.toISOString());
    const until = binds.add(query.until.toISOString());
    const sortKey = query.by === 'completion' ? 'item.completed_at' : `(item.due->>'date')`;
    const window =
      query.by === 'completion'
        ? `item.completed_at >= ${since} AND item.completed_at < ${until}`
        : `item.due IS NOT NULL AND left(item.due->>'date', 10) >= left(${since}::text, 10) AND left(item.due->>'date', 10) <= left(${until}::text, 10)`;
    const conditions = [COMPLETED_VISIBLE, window];
    if (query.projectId !== null) conditions.push(`item.project_id = ${binds.add(query.projectId)}`);
    if (query.sectionId !== null) conditions.push(`item.section_id = ${binds.add(query.sectionId)}`);
    if (query.parentId !== null) conditions.push(`item.parent_id = ${binds.add(query.parentId)}`);
    // A workspace's tasks: those of its projects (the ones the user sees, COMPLETED_VISIBLE).
    if (query.workspaceId !== null) conditions.push(`item.project_id IN (SELECT id FROM sync.projects WHERE workspace_id = ${binds.add(query.workspaceId)})`);
    if (filter) conditions.push(filter.where);
    if (after) {
      conditions.push(
        query.by === 'completion'
          ? `(item.completed_at, item.id) < (${binds.add(after.key)}::timestamptz, ${binds.add(after.id)}::bigint)`
          : `((item.due->>'date'), item.id) < (${binds.add(after.key)}::text, ${binds.add(after.id)}::bigint)`,
      );
    }
    const limit = binds.add(query.limit + 1);
    return manager.query<Item[]>(`SELECT ${ITEM_COLUMNS} FROM sync.items AS item WHERE ${conditions.join(' AND ')} ORDER BY ${sortKey} DESC, item.id DESC LIMIT ${limit}`, binds.values);
  }

  /** api/v1 `completed/search`: completed tasks whose content holds the text, newest completion first. */
  async search(manager: EntityManager, userId: string, search: CompletedSearch, after: CompletedPosition | null): Promise<Item[]> {
    const binds = new Binds([userId]);
    const conditions = [COMPLETED_VISIBLE, `item.content ILIKE ${binds.add(containsPattern(search.query))}`];
    if (after) conditions.push(`(item.completed_at, item.id) < (${binds.add(after.key)}::timestamptz, ${binds.add(after.id)}::bigint)`);
    const limit = binds.add(search.limit + 1);
    return manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items AS item WHERE ${conditions.join(' AND ')} ORDER BY item.completed_at DESC, item.id DESC LIMIT ${limit}`,
      binds.values,
    );
  }

  /** v9 `completed/get_all` and api/v1 `tasks/completed`: offset paging with optional bounds. */
  async page(manager: EntityManager, userId: string, query: GetAllQuery): Promise<Item[]> {
    return manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items AS item
        WHERE ${COMPLETED_VISIBLE}
          AND ($2::bigint IS NULL OR item.project_id = $2) AND ($3::timestamptz IS NULL OR item.completed_at >= $3) AND ($4::timestamptz IS NULL OR item.completed_at < $4)
          AND ($7::text IS NULL OR EXISTS (SELECT 1 FROM unnest(item.labels) AS name WHERE lower(name) = lower($7)))
        ORDER BY item.completed_at DESC, item.id DESC LIMIT $5 OFFSET $6`,
      [userId, query.projectId, query.since?.toISOString() ?? null, query.until?.toISOString() ?? null, query.limit, query.offset, query.label],
    );
  }
}
