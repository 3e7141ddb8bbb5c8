import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ITEM_COLUMNS, type Item, VISIBLE_PROJECTS } from '../items/item.model';
import type { CompletedPosition } from './completed-cursor';
import type { CompletedQuery, GetAllQuery } from './completed-query';

/** Completed tasks of the projects a user can see, newest first, paged by keyset. */
@Injectable()
export class CompletedRepository {
  /** One page in a date window, plus one row to tell whether another page exists. */
  async inWindow(manager: EntityManager, userId: string, query: CompletedQuery, after: CompletedPosition | null): Promise<Item[]> {
    const sortKey = query.by === 'completion' ? 'completed_at' : `(due->>'date')`;
    const window =
      query.by === 'completion'
        ? `completed_at >= $2 AND completed_at < $3`
        : `due IS NOT NULL AND left(due->>'date', 10) >= left($2::text, 10) AND left(due->>'date', 10) <= left($3::text, 10)`;
    const keyset = after
      ? query.by === 'completion'
        ? `AND (completed_at, id) < ($8::timestamptz, $9::bigint)`
        : `AND ((due->>'date'), id) < ($8::text, $9::bigint)`
      : '';
    return manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items
        WHERE project_id IN (${VISIBLE_PROJECTS}) AND checked AND NOT is_deleted AND ${window}
          AND ($4::bigint IS NULL OR project_id = $4) AND ($5::bigint IS NULL OR section_id = $5) AND ($6::bigint IS NULL OR parent_id = $6)
          ${keyset}
        ORDER BY ${sortKey} DESC, id DESC LIMIT $7`,
      [
        userId,
        query.since.toISOString(),
        query.until.toISOString(),
        query.projectId,
        query.sectionId,
        query.parentId,
        query.limit + 1,
        ...(after ? [after.key, after.id] : []),
      ],
    );
  }

  /** v9 `completed/get_all`: offset paging with optional bounds. */
  async page(manager: EntityManager, userId: string, query: GetAllQuery): Promise<Item[]> {
    return manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items
        WHERE project_id IN (${VISIBLE_PROJECTS}) AND checked AND NOT is_deleted
          AND ($2::bigint IS NULL OR project_id = $2) AND ($3::timestamptz IS NULL OR completed_at >= $3) AND ($4::timestamptz IS NULL OR completed_at < $4)
        ORDER BY completed_at DESC, id DESC LIMIT $5 OFFSET $6`,
      [userId, query.projectId, query.since?.toISOString() ?? null, query.until?.toISOString() ?? null, query.limit, query.offset],
    );
  }
}
