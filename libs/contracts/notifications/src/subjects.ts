import { requestSubject } from '@doable/contracts-common';
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
);
