import { z } from 'zod';
import { ENVOY_MAX_RING_SIZE, HOME_HASHES, type HomeHash } from './homes';

/**
 * Where gateway replicas find each other's barriers. Each gateway registers itself in a NATS KV
 * bucket, refreshing its key (the bucket's TTL is the lease), and answers requests on subjects
 * of its own. A service that must reach every gateway before it answers (a revocation, a change
 * that ends a cached "nothing new") asks each registered gateway and waits for each to answer,
 * or for its key to lapse: a gateway that cannot refresh its lease stops trusting its caches
 * first, so a lapsed key means a gateway that can no longer answer from them.
 */

/** How long a gateway's registration lives without a refresh; gateways refresh every quarter. */
export const GATEWAY_LEASE_MS = 6_000;

/** KV bucket names allow letters, digits, `-` and `_`: the subject prefix (`doable.`) made into one. */
export function gatewayRegistryBucket(subjectPrefix: string): string {
  return `${subjectPrefix.replace(/[^A-Za-z0-9_-]/g, '_')}gateways`;
}

/** A gateway's key in the registry bucket. */
export function gatewayRegistryKey(instanceId: string): string {
  return `gw.${instanceId}`;
}

export function instanceOfRegistryKey(key: string): string | undefined {
  return key.startsWith('gw.') ? key.slice(3) : undefined;
}

/** A subject only this gateway instance answers (core NATS request/reply, one responder). */
export function gatewayInstanceSubject(subjectPrefix: string, instanceId: string, name: string): string {
  return `${subjectPrefix}gateway.instance.${instanceId}.${name}`;
}

/**
 * A gateway's home in the balancer's consistent hash (docs/operations/home-gateways.md): its
 * name there (nginx's `server` string, Envoy's endpoint address) and the hash the balancer
 * applies. Declared in its registration, so sync follows whatever the gateways declared and
 * needs no setting of its own. A gateway without one (unnamed, or of a release before homes)
 * keeps every user's answers and hears every users-moved barrier, as before.
 */
export interface GatewayHome {
  readonly name: string;
  readonly hash: HomeHash;
  /** Envoy's `minimum_ring_size` (`envoy-ring-hash` only; absent: Envoy's default, 1024). */
  readonly ringSize?: number;
}

/** The JSON value of a gateway's registry key. Fields are only ever added (a release reads what it knows). */
export interface GatewayRegistration {
  readonly since: string;
  readonly home?: GatewayHome;
}

const gatewayHome = z.object({
  name: z.string().min(1).max(255),
  hash: z.enum(HOME_HASHES),
  ringSize: z.number().int().min(1).max(ENVOY_MAX_RING_SIZE).optional(),
});

/**
 * The home a registration declares, or undefined: none, or one this release cannot read (a
 * later release's hash). Undefined is the safe reading: such a gateway is told of every move.
 */
export function homeOfRegistration(value: string): GatewayHome | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || !('home' in parsed)) return undefined;
  const home = gatewayHome.safeParse(parsed.home);
  return home.success ? home.data : undefined;
}
