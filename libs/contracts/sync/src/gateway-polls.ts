import { gatewayInstanceSubject, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * The gateways answer a repeated no-change sync themselves (the gateway's polls/), from the
 * answer sync last gave to the same request, for as long as the user's marks have not moved.
 * Sync keeps that true: after every commit that moved users' marks (the transactions that emit
 * sync.evt.users-changed.v1), and before the write is answered, it tells every gateway which
 * users moved and waits for each to answer (or for its registration to lapse, see
 * contracts-common gateway-registry.ts). So a write answered by one gateway is never followed
 * by a stale "nothing new" from another. The users-changed event itself is relayed by the
 * outbox after the commit, too late to promise that.
 */

const userIds = z.array(z.string().regex(/^[0-9]+$/)).min(1).max(100_000);

export const usersMovedRequest = z.object({ userIds });
export type UsersMovedRequest = z.infer<typeof usersMovedRequest>;

/** Embedded mode, where the one gateway lives in the process: forget these users' no-change answers. */
export const usersMoved = requestSubject<UsersMovedRequest, { forgotten: number }>('gateway.users.moved.v1', usersMovedRequest, z.object({ forgotten: z.number().int() }));

/** The subject a gateway instance answers users-moved requests on, in a cluster. */
export function gatewayUsersMovedSubject(subjectPrefix: string, instanceId: string): string {
  return gatewayInstanceSubject(subjectPrefix, instanceId, 'users-moved.v1');
}
