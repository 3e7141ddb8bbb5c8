import { z } from 'zod';

/** A user as live notifications show them (`from_user`). */
export const notificationPerson = z.object({ id: z.string().regex(/^[0-9]+$/), email: z.string(), full_name: z.string(), image_id: z.string().nullable() });
export type NotificationPerson = z.infer<typeof notificationPerson>;

/**
 * The id `from_user` and an event's `actor` carry for someone without an account: an address
 * that declined a project invitation from its mail. No account has it (ids start at 1), and it
 * is a string of digits like every other, so a consumer of an earlier release reads the person
 * as any other.
 */
export const NO_ACCOUNT_ID = '0';

/** Someone without an account, named by their address (they gave no name). */
export function personWithoutAccount(email: string): NotificationPerson {
  return { id: NO_ACCOUNT_ID, email, full_name: email, image_id: null };
}
