import { z } from 'zod';

/** A user as live notifications show them (`from_user`). */
export const notificationPerson = z.object({ id: z.string().regex(/^[0-9]+$/), email: z.string(), full_name: z.string(), image_id: z.string().nullable() });
export type NotificationPerson = z.infer<typeof notificationPerson>;
