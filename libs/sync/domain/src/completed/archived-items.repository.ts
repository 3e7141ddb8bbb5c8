import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ITEM_COLUMNS, type Item } from '../items/item.model';
import type { CompletedPosition } from './completed-cursor';
import { VISIBLE_PROJECTS } from '../membership/membership';

/**
 * Where v9 `archive/items` looks: the completed tasks directly under one container, as the
 * apps show them when "show completed" is opened there. A project's and a section's are the
 * top-level tasks moved to history (a task's completed subtasks are listed under that task);
 * a task's are its checked subtasks.
 */
export type ArchiveScope = { readonly projectId: string } | { readonly sectionId: string } | { readonly parentId: string };

function scopeSql(scope: ArchiveScope): { where: string; value: string } {
  if ('projectId' in scope) return { where: 'item.project_id = $2 AND item.section_id IS NULL AND item.parent_id IS NULL AND item.in_history', value: scope.projectId };
  if ('sectionId' in scope) return { where: 'item.section_id = $2 AND item.parent_id IS NULL AND item.in_history', value: scope.sectionId };
  return { where: 'item.parent_id = $2 AND item.checked', value: scope.parentId };
}

/** Completed tasks under one container of a project the user can see ($1), newest first, paged by keyset. */
@Injectable()
export class ArchivedItemsRepository {
  /** One page after `after` (exclusive), plus one row to tell whether another page exists. */
  async page(manager: EntityManager, userId: string, scope: ArchiveScope, after: CompletedPosition | null, limit: number): Promise<Item[]> {
    const { where, value } = scopeSql(scope);
    return manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items AS item
        WHERE item.project_id IN (${VISIBLE_PROJECTS}) AND NOT item.is_deleted AND ${where}
          AND ($3::timestamptz IS NULL OR (item.completed_at, item.id) < ($3::timestamptz, $4::bigint))
        ORDER BY item.completed_at DESC, item.id DESC LIMIT $5`,
      [userId, value, after?.key ?? null, after?.id ?? null, limit + 1],
    );
  }

  async total(manager: EntityManager, userId: string, scope: ArchiveScope): Promise<number> {
    const { where, value } = scopeSql(scope);
    const [row] = await manager.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM sync.items AS item WHERE item.project_id IN (${VISIBLE_PROJECTS}) AND NOT item.is_deleted AND ${where}`,
      [userId, value],
    );
    return row?.n ?? 0;
  }

  /** Where a task the user can see stands in the order (`last_seen_id`), if it is completed. */
  async positionOf(manager: EntityManager, userId: string, itemId: string): Promise<CompletedPosition | null> {
    const [row] = await manager.query<Array<{ completed_at: Date | null }>>(
      `SELECT completed_at FROM sync.items WHERE project_id IN (${VISIBLE_PROJECTS}) AND id = $2 AND NOT is_deleted`,
      [userId, itemId],
    );
    return row?.completed_at ? { key: new Date(row.completed_at).toISOString(), id: itemId } : null;
  }
}
