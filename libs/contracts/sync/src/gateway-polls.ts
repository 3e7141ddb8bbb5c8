import { gatewayInstanceSubject, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * The gateways answer a repeated no-change sync themselves (the gateway's polls/), from the
 * answer sync last gave to the same request, for as long as the user's marks have not moved.
 * Sync keeps that true: after every commit that moved users' marks (the transactions that emit
 * sync.evt.users-changed.v1), and before the write is answered, it tells the gateways which
 * users moved and waits for each to answer (or for its registration to lapse, see
 * contracts-common gateway-registry.ts). So a write answered by one gateway is never followed
 * by a stale "nothing new" from another. The users-changed event itself is relayed by the
 * outbox after the commit, too late to promise that.
 *
 * Which gateways: each moved user's home (docs/operations/home-gateways.md; a named gateway
 * keeps answers only for the users it is home of), and every gateway without a home, which
 * keeps everyone's. A named gateway also tells its push sockets of those users on this message,
 * so a write costs one request and one reply per home, however many gateways there are; the
 * users-changed broadcast remains for gateways without a home and sockets away from theirs.
 * The payload is the same for both kinds of gateway, and for sync replicas of a release that
 * still asks every gateway.
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
