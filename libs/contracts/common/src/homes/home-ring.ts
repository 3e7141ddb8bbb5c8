import { ENVOY_MIN_RING_SIZE, EnvoyRing } from './envoy-ring';
import { homeKey } from './home-key';
import { NginxRing } from './nginx-ring';

/**
 * The consistent hashes a gateway may be declared to share with the balancer in front of it
 * (GATEWAY_HOME_HASH): nginx's `hash $key consistent`, or Envoy's `RING_HASH` with a header or
 * query-parameter hash policy. The same function runs in the balancer (choosing where a request
 * goes), in each gateway (am I this user's home?) and in sync (whom to tell a user moved).
 */
export const HOME_HASHES = ['nginx', 'envoy-ring-hash'] as const;
export type HomeHash = (typeof HOME_HASHES)[number];

export interface HomeRing {
  /** The member name a balancer sends this home key to, or undefined without members. */
  homeOf(key: string): string | undefined;
}

/**
 * The ring of one hash over these member names (duplicates count once, order does not matter).
 * `ringSize`: Envoy's `minimum_ring_size`, when it is not Envoy's default.
 */
export function homeRing(hash: HomeHash, names: readonly string[], ringSize?: number): HomeRing {
  switch (hash) {
    case 'nginx':
      return new NginxRing(names);
    case 'envoy-ring-hash':
      return new EnvoyRing(names, ringSize ?? ENVOY_MIN_RING_SIZE);
  }
}

/** The member name that is this user's home in the ring. */
export function homeOfUser(ring: HomeRing, userId: string): string | undefined {
  return ring.homeOf(homeKey(userId));
}
