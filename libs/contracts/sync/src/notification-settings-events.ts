import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';
import { NOTIFICATION_SERVICES } from './notification-settings';
import { uid } from './event-fields';

/**
 * A user's collaboration notification settings changed (update_notification_setting): the
 * choices whole, with where to mail them. The notifications service keeps a copy (its own
 * schema), from which it mails the collaboration notifications it makes: no request to sync
 * while it holds its transaction.
 */
export const notificationSettingsChanged = eventSubject(
  'sync.evt.notification-settings-changed.v1',
  z.object({
    userId: uid,
    /** The change's version: a copy keeps the newest (events may arrive out of order). */
    version: z.string().regex(/^[0-9]+$/),
    email: z.string(),
    lang: z.string(),
    settings: z.record(z.string(), z.object(Object.fromEntries(NOTIFICATION_SERVICES.map((service) => [service, z.boolean().optional()]))).partial()),
  }),
);
export type NotificationSettingsChanged = z.infer<typeof notificationSettingsChanged.payload>;
