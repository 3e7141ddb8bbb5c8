import type { LiveNotification, LiveNotificationsReply } from '@doable/contracts-notifications';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';

interface Row {
  id: string;
  notification_key: string;
  notification_type: string;
  from_uid: string | null;
  data: Record<string, unknown>;
  is_unread: boolean;
  is_deleted: boolean;
  created_at: Date;
}

/** A user's live notifications; the notification id doubles as its sequence number. */
@Injectable()
export class LiveNotificationsService {
  constructor(private readonly database: Database) {}

  async list(userId: string, after: number): Promise<LiveNotificationsReply> {
    const [rows, [state]] = await Promise.all([
      this.database.query<Row[]>(
        `SELECT id::text, notification_key, notification_type, from_uid::text, data, is_unread, is_deleted, created_at
           FROM notifications.live_notifications WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT 1000`,
        [userId, after],
      ),
      this.database.query<Array<{ last_read_id: string | null }>>('SELECT last_read_id::text FROM notifications.read_state WHERE user_id = $1', [userId]),
    ]);
    const live: LiveNotification[] = rows.map((row) => ({
      ...row.data,
      id: row.id,
      created_at: new Date(row.created_at).toISOString(),
      from_uid: row.from_uid,
      notification_key: row.notification_key,
      notification_type: row.notification_type,
      seq_no: Number(row.id),
      is_unread: row.is_unread,
      is_deleted: row.is_deleted,
    }));
    return { live_notifications: live, last_read_id: state?.last_read_id ?? null, cursor: rows.length ? Number(rows[rows.length - 1].id) : after };
  }
}
