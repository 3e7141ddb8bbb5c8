import { commandUuid, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';

export interface LiveNotification {
  id: string;
  created_at: string;
  from_uid: string | null;
  notification_key: string;
  notification_type: string;
  seq_no: number;
  is_unread: boolean;
  is_deleted: boolean;
  [extra: string]: unknown;
}

export interface LiveNotificationsReply {
  readonly live_notifications: LiveNotification[];
  readonly last_read_id: string | null;
  /** Highest seq_no included: the notification cursor sync puts into its token. */
  readonly cursor: number;
}

/** A user's live notifications after a cursor (0 = all). */
export const liveNotifications = requestSubject<{ userId: string; after: number }, LiveNotificationsReply>(
  'notifications.live.list.v1',
  z.object({ userId: z.string().regex(/^[0-9]+$/), after: z.number().int().min(0) }),
  z.object({
    // The fields every notification has; each type adds its own (sync-interface §6).
    live_notifications: z.array(
      z.looseObject({
        id: z.string(),
        created_at: z.string(),
        from_uid: z.string().nullable(),
        notification_key: z.string(),
        notification_type: z.string(),
        seq_no: z.number(),
        is_unread: z.boolean(),
        is_deleted: z.boolean(),
      }),
    ),
    last_read_id: z.string().nullable(),
    cursor: z.number(),
  }),
);

/** The Sync API's live-notification commands (sync-interface §4.2), run for one user. */
export const LIVE_NOTIFICATION_COMMANDS = ['live_notifications_set_last_read', 'live_notifications_mark_read', 'live_notifications_mark_read_all', 'live_notifications_mark_unread'] as const;
export type LiveNotificationCommandType = (typeof LIVE_NOTIFICATION_COMMANDS)[number];

const notificationId = z.union([z.string().regex(/^[0-9]{1,18}$/), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]).transform(String);

export const liveNotificationCommandSchema = z.discriminatedUnion('type', [
  /** `id` null or 0 marks everything read. */
  z.object({ type: z.literal('live_notifications_set_last_read'), args: z.object({ id: notificationId.nullable() }) }),
  z.object({ type: z.literal('live_notifications_mark_read'), args: z.object({ ids: z.array(notificationId).min(1).max(1_000) }) }),
  z.object({ type: z.literal('live_notifications_mark_read_all'), args: z.object({}).passthrough() }),
  z.object({ type: z.literal('live_notifications_mark_unread'), args: z.object({ ids: z.array(notificationId).min(1).max(1_000) }) }),
]);
export type LiveNotificationCommand = z.infer<typeof liveNotificationCommandSchema>;

export interface LiveNotificationCommandRequest {
  readonly userId: string;
  /**
   * The Sync API command's uuid (sync always sends it): the command runs once per user and uuid,
   * and a later delivery of the same uuid (a resent sync request) changes nothing and answers ok,
   * so it cannot undo a command that ran after it. Optional, so a caller that predates it (a
   * sync replica of the release before, during a rolling upgrade) still works: its commands run
   * every time they arrive.
   */
  readonly uuid?: string;
  readonly command: LiveNotificationCommand;
}

/** Runs one live-notification command; ids of other users' notifications change nothing. */
export const liveNotificationCommand = requestSubject<LiveNotificationCommandRequest, { ok: true }>(
  'notifications.live.command.v1',
  z.object({ userId: z.string().regex(/^[0-9]+$/), uuid: commandUuid.optional(), command: liveNotificationCommandSchema }),
  z.object({ ok: z.literal(true) }),
);
