import { MCP_PATH, PROTECTED_RESOURCE_METADATA_PATH } from '@doable/contracts-mcp';
import type { RoutedRequest } from '../routes/routed-request';

interface ChallengedRequest extends RoutedRequest {
  readonly protocol?: string;
  readonly headers?: Record<string, string | string[] | undefined>;
  get?(name: string): string | undefined;
}

/**
 * The WWW-Authenticate of a 401. On a protected resource (the assistant server) it names the
 * resource's metadata (RFC 9728 §5.1), where a client finds the authorization server, and says
 * `invalid_token` when a token was sent (RFC 6750 §3.1): an expired or revoked token makes an
 * assistant authorise again instead of failing.
 */
export function authChallengeFor(request: ChallengedRequest | undefined): string {
  if (request?.routeMatch?.route.challenge !== 'protected-resource') return 'Bearer';
  const origin = `${request.protocol ?? 'http'}://${request.get?.('host') ?? 'localhost'}`;
  const parts = [`resource_metadata="${origin}${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}"`];
  if (request.headers?.['authorization'] !== undefined) parts.push('error="invalid_token"');
  return `Bearer ${parts.join(', ')}`;
}
