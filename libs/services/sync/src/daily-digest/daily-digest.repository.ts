import type { DailyDigestDue } from '@doable/contracts-sync';
import type { CompiledFilter } from '@doable/sync-filter-language';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A user whose digest is due, and their local day it is due for. */
export interface DueDigest {
  readonly userId: string;
  readonly localDate: string;
}

/** The users who turned the digest on: the migration's partial index reads this very condition. */
const DIGEST_ON = `(u.notification_settings -> 'daily_digest' ->> 'email') = 'true'`;

/** The daily digest's reads and its once-a-day mark on sync.users (digest_sent_on). */
@Injectable()
export class DailyDigestRepository {
  /**
   * Up to `limit` users after `afterId` (in id order) whose digest is on, whose local time at
   * `now` is at or past `hour`, and who were not sent one for their local today. Their zone is
   * their timezone setting when PostgreSQL knows it, else UTC, as the filters read an unknown one.
   * Not locked: claim() locks each, so a slow digest holds one user's row, not a page of them.
   * pg_timezone_names is read once per call (about 100 ms), not per user.
   */
  async dueAfter(manager: EntityManager, now: Date, hour: number, afterId: string, limit: number): Promise<DueDigest[]> {
    const rows = await manager.query<Array<{ user_id: string; local_date: string }>>(
      `SELECT u.id::text AS user_id, to_char(local.at, 'YYYY-MM-DD') AS local_date
         FROM sync.users u
         LEFT JOIN (SELECT name FROM pg_timezone_names) known ON known.name = u.timezone
         CROSS JOIN LATERAL (SELECT timezone(COALESCE(known.name, 'UTC'), $1::timestamptz) AS at) local
        WHERE ${DIGEST_ON} AND u.id > $3::bigint
          AND extract(hour FROM local.at) >= $2
          AND (u.digest_sent_on IS NULL OR u.digest_sent_on < local.at::date)
        ORDER BY u.id
        LIMIT $4`,
      [now.toISOString(), hour, afterId, limit],
    );
    return rows.map((row) => ({ userId: row.user_id, localDate: row.local_date }));
  }

  /**
   * Locks the user's row when their digest is still due for `localDate` (on, and not sent for
   * it): the same lock every write of theirs takes first. SKIP LOCKED: a user another replica is
   * digesting, or who is writing right now, is left to the next look rather than waited for.
   */
  async claim(manager: EntityManager, due: DueDigest): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `SELECT u.id FROM sync.users u
        WHERE u.id = $1 AND ${DIGEST_ON} AND (u.digest_sent_on IS NULL OR u.digest_sent_on < $2::date)
        FOR UPDATE SKIP LOCKED`,
      [due.userId, due.localDate],
    );
    return rows.length > 0;
  }

  /** Marks the digest sent for the local day (not a synced change: no version moves). */
  async markSent(manager: EntityManager, due: DueDigest): Promise<void> {
    await manager.query(`UPDATE sync.users SET digest_sent_on = $2::date WHERE id = $1`, [due.userId, due.localDate]);
  }

  /**
   * The tasks a compiled filter selects (its WHERE over `sync.items AS item`, $1 the user),
   * overdue first, then by priority (4 is urgent); the first `limit`, and how many there are.
   */
  async tasks(manager: EntityManager, filter: CompiledFilter, limit: number): Promise<Pick<DailyDigestDue, 'tasks' | 'total'>> {
    const rows = await manager.query<Array<DailyDigestDue['tasks'][number] & { total: string }>>(
      `SELECT item.content, COALESCE(item.due ->> 'date', '') AS "dueDate", COALESCE(item.due ->> 'string', '') AS "dueString",
              project.name AS "projectName", item.priority, count(*) OVER () AS total
         FROM sync.items AS item JOIN sync.projects project ON project.id = item.project_id
        WHERE ${filter.where}
        ORDER BY item.due ->> 'date', item.priority DESC, item.id
        LIMIT ${Number(limit)}`,
      [...filter.params],
    );
    return { total: rows.length === 0 ? 0 : Number(rows[0].total), tasks: rows.map(({ total: _total, ...task }) => task) };
  }
}
