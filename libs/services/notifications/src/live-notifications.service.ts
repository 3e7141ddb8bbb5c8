import type { LiveNotification, LiveNotificationCommand, LiveNotificationsReply } from '@doable/contracts-notifications';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CommandLogRepository } from './command-log.repository';
import { lockNotificationsOf, MARK } from './store/live-notification.repository';

interface Row {
  id: string;
  seq: string;
  notification_key: string;
  notification_type: string;
  from_uid: string | null;
  data: Record<string, unknown>;
  is_unread: boolean;
  is_deleted: boolean;
  /** Wire text, `YYYY-MM-DDTHH:MM:SS.ffffffZ` (CREATED_AT_WIRE). */
  created_at: string;
}

/**
 * created_at as every other timestamp of the Sync API is written (sync's wireTimestampSql:
 * milliseconds then `000`, six fraction digits), not JavaScript's three-digit toISOString().
 */
const CREATED_AT_WIRE = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"000Z"') AS created_at`;

/**
 * A user's live notifications. `seq` orders changes (creation and read state), and the sync
 * token's notification cursor is the highest `seq` a client has seen.
 */
@Injectable()
export class LiveNotificationsService {
  constructor(
    private readonly database: Database,
    private readonly commandLog: CommandLogRepository,
  ) {}

  async list(userId: string, after: number): Promise<LiveNotificationsReply> {
    const [rows, [state]] = await Promise.all([
      this.database.query<Row[]>(
        // Ordered by the column, not by the output `seq` (its text): as text "100" sorts before "99",
        // so the cursor (the last row's seq) stopped short and the next read sent a notification again (issue #45).
        `SELECT id::text, seq::text, notification_key, notification_type, from_uid::text, data, is_unread, is_deleted, ${CREATED_AT_WIRE}
           FROM notifications.live_notifications WHERE user_id = $1 AND seq > $2 ORDER BY live_notifications.seq LIMIT 1000`,
        [userId, after],
      ),
      this.database.query<Array<{ last_read_id: string | null }>>('SELECT last_read_id::text FROM notifications.read_state WHERE user_id = $1', [userId]),
    ]);
    const live: LiveNotification[] = rows.map((row) => ({
      ...row.data,
      id: row.id,
      created_at: row.created_at,
      from_uid: row.from_uid,
      notification_key: row.notification_key,
      notification_type: row.notification_type,
      seq_no: Number(row.id),
      is_unread: row.is_unread,
      is_deleted: row.is_deleted,
    }));
    return { live_notifications: live, last_read_id: state?.last_read_id ?? null, cursor: rows.length ? Number(rows[rows.length - 1].seq) : after };
  }

  /**
   * Runs a Sync API live-notification command. Ids that are not the user's change nothing. With
   * its `uuid`, it runs once: sync resends a request whose replica fell silent, and the late copy
   * may arrive after the user's next commands ran (mark_unread after a later set_last_read would
   * make a read notification unread again), so a uuid already run changes nothing.
   */
  async run(userId: string, command: LiveNotificationCommand, uuid?: string): Promise<void> {
    await this.database.transaction(async (tx) => {
      const manager = tx.manager;
      await lockNotificationsOf(manager, [userId]);
      // Under the user's lock: a copy running at the same time waits, then finds the uuid taken.
      if (uuid !== undefined && !(await this.commandLog.claim(manager, userId, uuid))) return;
      switch (command.type) {
        case 'live_notifications_mark_read':
          return this.setUnread(manager, userId, command.args.ids, false);
        case 'live_notifications_mark_unread':
          return this.setUnread(manager, userId, command.args.ids, true);
        case 'live_notifications_mark_read_all':
          return this.readUpTo(manager, userId, null);
        case 'live_notifications_set_last_read':
          return this.readUpTo(manager, userId, command.args.id === null || command.args.id === '0' ? null : command.args.id);
      }
    });
  }

  private async setUnread(manager: EntityManager, userId: string, ids: readonly string[], unread: boolean): Promise<void> {
    await manager.query(`UPDATE notifications.live_notifications SET is_unread = $3, ${MARK} WHERE user_id = $1 AND id = ANY($2::bigint[]) AND is_unread <> $3`, [
      userId,
      ids,
      unread,
    ]);
  }

  /** Moves the last-read marker (to the newest notification when `id` is null) and reads everything up to it. */
  private async readUpTo(manager: EntityManager, userId: string, id: string | null): Promise<void> {
    let last = id;
    if (last === null) {
      const [row] = await manager.query<Array<{ last: string | null }>>(`SELECT max(id)::text AS last FROM notifications.live_notifications WHERE user_id = $1`, [userId]);
      last = row?.last ?? null;
    }
    await manager.query(
      `INSERT INTO notifications.read_state (user_id, last_read_id) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET last_read_id = EXCLUDED.last_read_id`,
      [userId, last],
    );
    if (last !== null) {
      await manager.query(`UPDATE notifications.live_notifications SET is_unread = false, ${MARK} WHERE user_id = $1 AND id <= $2 AND is_unread`, [userId, last]);
    }
  }
}
