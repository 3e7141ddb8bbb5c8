import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Every state change takes the next change sequence value, so sync cursors see it. */
export const MARK = `seq = nextval('notifications.change_seq')`;

/**
 * Serialises the writes to these users' notifications until the transaction ends. A sync
 * token's cursor is the highest `seq` its user has seen, so one user's `seq` values must commit
 * in the order they are taken: two transactions taking seq 50 and 51 for the same user, 51
 * committing first, would let a sync in between move the cursor past 50 for good. Every writer
 * takes this lock (in id order, so two writers never deadlock) before it takes a `seq`.
 */
export async function lockNotificationsOf(manager: EntityManager, userIds: readonly string[]): Promise<void> {
  const ids = [...new Set(userIds)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
  for (const id of ids) await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('notifications.user:' || $1::text, 0))`, [id]);
}

/** A notification to create: who receives it, its unique key, its type, and its type's own fields. */
export interface NotificationDraft {
  readonly userId: string;
  /** Unique and derived from the event (never random), so a redelivered event finds it taken. */
  readonly key: string;
  readonly type: string;
  /** The user who caused it (the receiver's own id for goals and karma): never null. */
  readonly fromUid: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The writes domain events make to live notifications. Each answers the users whose notifications changed. */
@Injectable()
export class LiveNotificationRepository {
  /** Creates the drafts whose key is still free; answers the receivers of those created. */
  async insert(manager: EntityManager, drafts: readonly NotificationDraft[]): Promise<string[]> {
    if (drafts.length === 0) return [];
    await lockNotificationsOf(manager, drafts.map((draft) => draft.userId));
    const rows = await manager.query<Array<{ user_id: string }>>(
      `INSERT INTO notifications.live_notifications (user_id, notification_key, notification_type, from_uid, data)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::jsonb[])
       ON CONFLICT (notification_key) DO NOTHING RETURNING user_id::text`,
      [drafts.map((draft) => draft.userId), drafts.map((draft) => draft.key), drafts.map((draft) => draft.type), drafts.map((draft) => draft.fromUid), drafts.map((draft) => JSON.stringify(draft.data))],
    );
    return rows.map((row) => row.user_id);
  }

  /**
   * Creates the draft, or, when its key exists (an invitation sent again with a new secret),
   * makes the existing one new again: its fields replaced, unread, not deleted, a new `seq`.
   * The same fields again (a redelivery) change nothing.
   */
  async upsert(manager: EntityManager, draft: NotificationDraft): Promise<string[]> {
    await lockNotificationsOf(manager, [draft.userId]);
    const rows = await manager.query<Array<{ user_id: string }>>(
      `INSERT INTO notifications.live_notifications (user_id, notification_key, notification_type, from_uid, data)
       VALUES ($1, $2, $3, $4, $5::jsonb)
       ON CONFLICT (notification_key) DO UPDATE
          SET data = EXCLUDED.data, from_uid = EXCLUDED.from_uid, is_unread = true, is_deleted = false, created_at = now(), ${MARK}
        WHERE live_notifications.user_id = EXCLUDED.user_id
          AND (live_notifications.data IS DISTINCT FROM EXCLUDED.data OR live_notifications.is_deleted)
       RETURNING user_id::text`,
      [draft.userId, draft.key, draft.type, draft.fromUid, JSON.stringify(draft.data)],
    );
    return rows.map((row) => row.user_id);
  }

  /** Sets the `state` field of the notification with this key, unless it already has it. */
  async setState(manager: EntityManager, key: string, state: string): Promise<string[]> {
    await lockNotificationsOf(manager, await this.receiversOf(manager, key));
    // TypeORM answers UPDATE ... RETURNING with [rows, affected].
    const [rows] = await manager.query<[Array<{ user_id: string }>, number]>(
      `UPDATE notifications.live_notifications SET data = jsonb_set(data, '{state}', to_jsonb($2::text)), ${MARK}
        WHERE notification_key = $1 AND data->>'state' IS DISTINCT FROM $2 RETURNING user_id::text`,
      [key, state],
    );
    return rows.map((row) => row.user_id);
  }

  /** Marks the notification with this key deleted (its receiver's next sync shows is_deleted). */
  async markDeleted(manager: EntityManager, key: string): Promise<string[]> {
    await lockNotificationsOf(manager, await this.receiversOf(manager, key));
    const [rows] = await manager.query<[Array<{ user_id: string }>, number]>(
      `UPDATE notifications.live_notifications SET is_deleted = true, ${MARK} WHERE notification_key = $1 AND NOT is_deleted RETURNING user_id::text`,
      [key],
    );
    return rows.map((row) => row.user_id);
  }

  private async receiversOf(manager: EntityManager, key: string): Promise<string[]> {
    const rows = await manager.query<Array<{ user_id: string }>>(`SELECT user_id::text FROM notifications.live_notifications WHERE notification_key = $1`, [key]);
    return rows.map((row) => row.user_id);
  }
}
