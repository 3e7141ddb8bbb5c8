import { requestSubject } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * How a revocation reaches every gateway before the revoke call returns (the revocation
 * barrier). Each gateway replica registers itself in a NATS KV bucket, refreshing its key
 * (the bucket's TTL is the lease) and answering drop requests on its own subject. A revoker
 * (auth-oauth, the CLI) sends the revoked token hashes to every registered gateway and waits
 * for each to answer, or for its key to lapse: a gateway that cannot refresh its lease stops
 * trusting its cache first, so a lapsed key means a gateway that can no longer accept the token.
 */

/** How long a gateway's registration lives without a refresh; gateways refresh every quarter. */
export const GATEWAY_LEASE_MS = 6_000;

const tokenHashes = z.array(z.string().regex(/^[0-9a-f]{64}$/, 'sha256 hex')).max(10_000);

export const dropTokensRequest = z.object({ tokenHashes });
export type DropTokensRequest = z.infer<typeof dropTokensRequest>;

/**
 * Embedded mode, where the one gateway lives in the process: drop these tokens from the
 * principal cache. Answers how many it held.
 */
export const dropTokens = requestSubject<DropTokensRequest, { dropped: number }>('gateway.token.drop.v1', dropTokensRequest);

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

/** The subject a gateway instance answers drop requests on (core NATS request/reply, one responder). */
export function gatewayDropSubject(subjectPrefix: string, instanceId: string): string {
  return `${subjectPrefix}gateway.instance.${instanceId}.drop-tokens.v1`;
}
