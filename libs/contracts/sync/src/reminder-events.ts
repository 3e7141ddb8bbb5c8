import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';

const uid = z.string().regex(/^[0-9]+$/);

/**
 * A time reminder came due and was fired, once (sync's reminder scheduler marks it fired in the
 * same transaction that records this). `userId` is whom it notifies; `reminder` is the reminder
 * in the api/v1 shape as it fired (webhooks' `reminder:fired` event_data).
 */
export const reminderFired = eventSubject(
  'sync.evt.reminder-fired.v1',
  z.object({
    reminderId: uid,
    itemId: uid,
    projectId: uid,
    userId: uid,
    /** When it was due (ISO 8601 UTC): the absolute due, or the task's due less minute_offset. */
    dueAt: z.string(),
    /** When the scheduler fired it (ISO 8601 UTC). */
    firedAt: z.string(),
    reminder: z.record(z.string(), z.unknown()),
    /**
     * Present when the reminder is to be mailed (its legacy `service` is `email`): where, in
     * which language, and the task's content for the mail. Absent otherwise, and in events
     * recorded before mail existed.
     */
    mail: z.object({ to: z.string(), lang: z.string(), taskContent: z.string() }).optional(),
  }),
);
export type ReminderFired = z.infer<typeof reminderFired.payload>;
