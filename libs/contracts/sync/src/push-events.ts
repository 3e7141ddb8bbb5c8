import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * Something these users see changed: their next incremental sync has news. Emitted in the
 * transaction of every change (one event per change, naming the actor and everyone else whose
 * high-water mark it raised) and when live notifications reach users. The gateway's push
 * channel listens by broadcast (every replica, not durable) and tells the users' open
 * WebSockets `sync_needed`; nothing else may rely on it, as a gateway that was down misses it.
 * `version` is the change's version; absent when only live notifications moved.
 */
export const usersChanged = eventSubject(
  'sync.evt.users-changed.v1',
  z.object({
    userIds: z.array(z.string().regex(/^[0-9]+$/)).min(1),
    version: z.string().regex(/^[0-9]+$/).optional(),
  }),
);
export type UsersChanged = z.infer<typeof usersChanged.payload>;
