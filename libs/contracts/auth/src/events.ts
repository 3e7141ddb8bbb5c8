import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';

/** A new account exists: sync creates the profile and Inbox, plans assigns the default plan. */
export const userCreated = eventSubject(
  'auth.evt.user-created.v1',
  z.object({
    userId: z.string().regex(/^[0-9]+$/),
    email: z.string().email(),
    fullName: z.string(),
    timezone: z.string(),
    lang: z.string().default('en'),
    joinedAt: z.string(),
    hasPassword: z.boolean(),
  }),
);

/** A token stopped working: every gateway replica drops it from its principal cache. */
export const tokenRevoked = eventSubject('auth.evt.token-revoked.v1', z.object({ tokenHash: z.string(), userId: z.string() }));
