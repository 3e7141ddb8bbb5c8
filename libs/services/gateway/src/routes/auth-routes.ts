import { AuthSubjects } from '@doable/contracts-auth';
import { MCP_PATH, PROTECTED_RESOURCE_METADATA_PATH } from '@doable/contracts-mcp';
import type { HttpMethod, Route } from './route';

function auth(method: HttpMethod, path: string, dialect: Route['dialect'] = 'sync-api-v1'): Route {
  return { method, path, subject: AuthSubjects.edge, dialect, auth: 'none' };
}

/** A route where credentials, codes or secrets are tried: rate-limited per client address. */
function guessable(method: HttpMethod, path: string, dialect: Route['dialect'] = 'sync-api-v1'): Route {
  return { ...auth(method, path, dialect), limitBy: 'address' };
}

/** Revoking a token twice revokes it once (RFC 7009 §2.2): safe to resend to another replica. */
function revocation(method: HttpMethod, path: string, dialect: Route['dialect'] = 'sync-api-v1'): Route {
  return { ...guessable(method, path, dialect), idempotent: true };
}

/**
 * Accounts, pages and the OAuth 2.0 flow, served by auth-oauth. None takes a bearer token: pages
 * use the session cookie, OAuth endpoints the client's credentials (checked by auth-oauth).
 * The dialect tells v9 from v1 where their answers differ (migrate's `expires_in`).
 */
export const AUTH_ROUTES: readonly Route[] = [
  auth('GET', '/auth/signup'),
  guessable('POST', '/auth/signup'),
  auth('GET', '/auth/login'),
  guessable('POST', '/auth/login'),
  auth('POST', '/auth/logout'),
  auth('GET', '/auth/settings'),
  auth('POST', '/auth/settings/token'),
  auth('POST', '/auth/settings/apps/revoke'),
  auth('GET', '/auth/apps'),
  auth('POST', '/auth/apps'),
  auth('POST', '/auth/apps/secret'),
  auth('POST', '/auth/apps/webhook'),
  auth('GET', '/oauth/authorize'),
  guessable('POST', '/oauth/authorize'),
  guessable('POST', '/oauth/access_token'),
  auth('GET', '/.well-known/oauth-authorization-server'),
  // Assistants (MCP): where the resource's authorization server is, and self-registration.
  auth('GET', PROTECTED_RESOURCE_METADATA_PATH),
  auth('GET', `${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`),
  guessable('POST', '/oauth/register'),
  revocation('POST', '/sync/v8/access_tokens/revoke', 'sync-v8'),
  revocation('POST', '/sync/v9/access_tokens/revoke', 'sync-v9'),
  guessable('POST', '/sync/v9/access_tokens/migrate_personal_token', 'sync-v9'),
  revocation('POST', '/api/v1/access_tokens/revoke'),
  revocation('DELETE', '/api/v1/access_tokens'),
  revocation('POST', '/api/v1/revoke'),
  guessable('POST', '/api/v1/access_tokens/migrate_personal_token'),
  // An application's webhook, authenticated with its client credentials (HTTP Basic).
  guessable('GET', '/api/v1/apps/webhook'),
  guessable('PUT', '/api/v1/apps/webhook'),
  guessable('DELETE', '/api/v1/apps/webhook'),
];
