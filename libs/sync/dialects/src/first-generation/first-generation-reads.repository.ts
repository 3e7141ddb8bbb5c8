import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { inLiveVisibleProjects, type Item, ITEM_COLUMNS, LIVE_VISIBLE_PROJECTS, VISIBLE_PROJECTS } from '@doable/sync-domain';


/**
 * The reads only the first generation makes: a project's task list with the rows its flat
 * `item_order`/`indent` are counted over, and tasks by id. One query each, bounded by the
 * user's visible projects ($1).
 */
@Injectable()
export class FirstGenerationReadsRepository {
  /**
   * The uncompleted tasks of some projects (not checked, not in history): what getUncompletedItems
   * lists and what the flat positions of any task of those projects are counted over.
   */
  async uncompletedIn(manager: EntityManager, userId: string, projectIds: readonly string[]): Promise<Item[]> {
    if (projectIds.length === 0) return [];
    return manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items
        WHERE project_id IN (${LIVE_VISIBLE_PROJECTS}) AND project_id = ANY($2::bigint[]) AND NOT is_deleted AND NOT in_history AND NOT checked
        ORDER BY project_id, child_order, id`,
      [userId, projectIds],
    );
  }

  /** Tasks by id the user can see, completed ones included (getItemsById), deleted ones not. */
  async byIds(manager: EntityManager, userId: string, ids: readonly string[]): Promise<Item[]> {
    if (ids.length === 0) return [];
    return manager.query<Item[]>(`SELECT ${ITEM_COLUMNS} FROM sync.items WHERE project_id IN (${VISIBLE_PROJECTS}) AND id = ANY($2::bigint[]) AND NOT is_deleted ORDER BY id`, [
      userId,
      ids,
    ]);
  }

  /**
   * How many uncompleted tasks each open project holds (`cache_count`), in one grouped query over
   * the open projects as an array: one scan of the user's tasks (inLiveVisibleProjects).
   */
  async uncompletedCounts(manager: EntityManager, userId: string): Promise<Map<string, number>> {
    const rows = await manager.query<Array<{ project_id: string; count: string }>>(
      `SELECT project_id::text, count(*)::text AS count FROM sync.items
        WHERE ${inLiveVisibleProjects('project_id')} AND NOT is_deleted AND NOT in_history AND NOT checked GROUP BY project_id`,
      [userId],
    );
    return new Map(rows.map((row) => [row.project_id, Number(row.count)]));
  }
}
