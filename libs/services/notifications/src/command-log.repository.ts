import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** notifications.command_log: the Sync API commands this service has run, by user and uuid. */
@Injectable()
export class CommandLogRepository {
  /**
   * Records that the user's command `uuid` runs now, in the caller's transaction (so the record
   * commits with the change or not at all); false when it ran before and must not run again.
   * The caller holds the user's notifications lock (lockNotificationsOf), so a second delivery
   * of the uuid waits for the first to commit and then finds it here.
   */
  async claim(manager: EntityManager, userId: string, uuid: string): Promise<boolean> {
    const rows = await manager.query<Array<{ uuid: string }>>(
      `INSERT INTO notifications.command_log (user_id, uuid) VALUES ($1, $2) ON CONFLICT (user_id, uuid) DO NOTHING RETURNING uuid`,
      [userId, uuid],
    );
    return rows.length > 0;
  }

  /** Deletes at most `limit` entries older than `days` (a short statement on a busy table); answers how many went. */
  async deleteOlderThan(manager: EntityManager, days: number, limit: number): Promise<number> {
    // TypeORM answers DELETE with [rows, affected].
    const [, affected] = await manager.query<[unknown[], number]>(
      `DELETE FROM notifications.command_log WHERE (user_id, uuid) IN (
         SELECT user_id, uuid FROM notifications.command_log WHERE executed_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, limit],
    );
    return affected;
  }
}
