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
}
