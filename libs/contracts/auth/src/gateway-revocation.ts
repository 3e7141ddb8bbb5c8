import { gatewayInstanceSubject, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * How a revocation reaches every gateway before the revoke call returns (the revocation
 * barrier, over the gateway registry of contracts-common): a revoker (auth-oauth, the CLI)
 * sends the revoked token hashes to every registered gateway and waits for each to answer, or
 * for its key to lapse: a lapsed key means a gateway that can no longer accept the token.
 */

const tokenHashes = z.array(z.string().regex(/^[0-9a-f]{64}$/, 'sha256 hex')).max(10_000);

export const dropTokensRequest = z.object({ tokenHashes });
export type DropTokensRequest = z.infer<typeof dropTokensRequest>;

/**
 * Embedded mode, where the one gateway lives in the process: drop these tokens from the
 * principal cache. Answers how many it held.
 */
export const dropTokens = requestSubject<DropTokensRequest, { dropped: number }>('gateway.token.drop.v1', dropTokensRequest, z.object({ dropped: z.number().int() }));

/** The subject a gateway instance answers drop requests on (core NATS request/reply, one responder). */
export function gatewayDropSubject(subjectPrefix: string, instanceId: string): string {
  return gatewayInstanceSubject(subjectPrefix, instanceId, 'drop-tokens.v1');
}
