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
