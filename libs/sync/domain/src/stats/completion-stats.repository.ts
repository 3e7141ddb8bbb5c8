import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Completions of one calendar day (in the user's zone), by project. */
export interface DayCompletions {
  readonly day: string;
  readonly projectId: string;
  readonly count: number;
}

/** How far back streaks are looked for: a year of days is at most 365 x projects rows. */
export const STATS_HISTORY_DAYS = 366;

/**
 * Completed tasks grouped by day and project in SQL (the completed index keeps this a range
 * scan), so the stats cost what a year of completions groups into, not the account's size.
 */
@Injectable()
export class CompletionStatsRepository {
  async completionsByDay(manager: EntityManager, userId: string, timezone: string, since: Date): Promise<DayCompletions[]> {
    const rows = await manager.query<Array<{ day: string; project_id: string; count: number }>>(
      `SELECT to_char((completed_at AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day, project_id::text AS project_id, count(*)::int AS count
         FROM sync.items
        WHERE user_id = $1 AND checked AND NOT is_deleted AND completed_at >= $3
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [userId, timezone, since],
    );
    return rows.map((row) => ({ day: row.day, projectId: row.project_id, count: row.count }));
  }

  async completedCount(manager: EntityManager, userId: string): Promise<number> {
    const rows = await manager.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM sync.items WHERE user_id = $1 AND checked AND NOT is_deleted`, [userId]);
    return rows[0]?.count ?? 0;
  }

  async projectColors(manager: EntityManager, projectIds: readonly string[]): Promise<Record<string, string>> {
    if (projectIds.length === 0) return {};
    const rows = await manager.query<Array<{ id: string; color: string }>>(`SELECT id::text AS id, color FROM sync.projects WHERE id = ANY($1::bigint[])`, [projectIds]);
    return Object.fromEntries(rows.map((row) => [row.id, row.color]));
  }
}
