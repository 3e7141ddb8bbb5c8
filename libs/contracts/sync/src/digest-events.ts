import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';
import { uid } from './event-fields';

/** The most tasks one digest lists; `total` says how many there were. */
export const DIGEST_MAX_TASKS = 50;

/**
 * A user's daily digest is due (their `daily_digest` email setting is on and their local clock
 * has passed the digest hour): sync recorded it sent for `localDate` in the transaction that
 * wrote this event, so it is written once per user and local day. The tasks are the user's
 * Today view (`today | overdue`), as sync reads it then; the notifications service mails them.
 */
export const dailyDigestDue = eventSubject(
  'sync.evt.daily-digest-due.v1',
  z.object({
    userId: uid,
    /** The user's today, YYYY-MM-DD, in their timezone: with the user, the mail's key. */
    localDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** How many tasks are due today or overdue; `tasks` holds the first DIGEST_MAX_TASKS. */
    total: z.number().int().min(0),
    tasks: z
      .array(
        z.object({
          content: z.string(),
          /** The stored due date: YYYY-MM-DD, or with a time (floating, or UTC with Z). */
          dueDate: z.string(),
          /** The due as the user wrote it ("every monday"). */
          dueString: z.string(),
          projectName: z.string(),
          /** 1 (normal) to 4 (urgent), as the API stores it. */
          priority: z.number().int().min(1).max(4),
        }),
      )
      .max(DIGEST_MAX_TASKS),
  }),
);
export type DailyDigestDue = z.infer<typeof dailyDigestDue.payload>;
