import type { Dialect, EdgeRequest } from '@doable/contracts-common';
import { MCP_PATH, PROTECTED_RESOURCE_METADATA_PATH } from '@doable/contracts-mcp';

/**
 * How a route answers a request it refuses (text PostgreSQL cannot store, among others):
 * `page`: an HTML page (log-in and sign-up re-render their form with the error);
 * `oauth-json`: OAuth 2.0's JSON `{error, error_description}` (RFC 6749 §5.2, RFC 7009);
 * `todoist`: the api/v1 error body, made from the error's code by the gateway;
 * `login-error`: the first generation's bare `"LOGIN_ERROR"`;
 * `none`: a static document (RFC 8414, RFC 9728) reads no parameter, so nothing in a request is refused.
 */
export type AuthErrorForm = 'page' | 'oauth-json' | 'todoist' | 'login-error' | 'none';

/**
 * One route auth-oauth answers on `AuthSubjects.edge`. The gateway builds its rows from these
 * facts, and auth-oauth dispatches on `handler`, so a route exists in both places or in neither.
 */
export interface AuthEndpoint<Handler extends string = string> {
  readonly method: EdgeRequest['method'];
  /** A literal path: auth routes take no path parameters. */
  readonly path: string;
  /** The name auth-oauth runs it under: several routes may share one handler. */
  readonly handler: Handler;
  /** Tells v9 from v1 where their answers differ (migrate's `expires_in`). */
  readonly dialect: Dialect;
  readonly errors: AuthErrorForm;
  /** Credentials, codes or secrets are tried here: the gateway counts it per client address. */
  readonly guessable?: true;
  /** Revoking a token twice revokes it once (RFC 7009 §2.2): safe to resend to another replica. */
  readonly idempotent?: true;
}

interface Facts {
  readonly dialect?: Dialect;
  readonly guessable?: true;
  readonly idempotent?: true;
}

function endpoint<const Handler extends string>(method: EdgeRequest['method'], path: string, handler: Handler, errors: AuthErrorForm, facts: Facts = {}): AuthEndpoint<Handler> {
  return { method, path, handler, dialect: facts.dialect ?? 'sync-api-v1', errors, ...(facts.guessable ? { guessable: true } : {}), ...(facts.idempotent ? { idempotent: true } : {}) };
}

const guessable = { guessable: true } as const;

/**
 * The decline page of a project or workspace invitation mailed to an address without an account
 * (its link is the notifications service's, `?invitation_id&invitation_secret`, and
 * `&invitation_kind=workspace` for a workspace's): a GET shows the invitation, a POST from its
 * button declines it. Each try of a secret is counted per client address.
 */
export const INVITATION_DECLINE_PATH = '/auth/invitation/decline';
const revocation = { guessable: true, idempotent: true } as const;

/**
 * Accounts, pages, the OAuth 2.0 flow and the first generation's log-in, served by auth-oauth.
 * None takes a bearer token: pages use the session cookie, OAuth endpoints the client's
 * credentials, log-ins a password (each checked by auth-oauth).
 */
export const AUTH_ENDPOINTS = [
  endpoint('GET', '/auth/signup', 'signup-form', 'page'),
  endpoint('POST', '/auth/signup', 'signup', 'page', guessable),
  endpoint('GET', '/auth/login', 'login-form', 'page'),
  endpoint('POST', '/auth/login', 'login', 'page', guessable),
  // Two-factor log-in: the code step after the password, and enrolment on the settings pages.
  endpoint('GET', '/auth/login/two-factor', 'two-factor-login-form', 'page'),
  endpoint('POST', '/auth/login/two-factor', 'two-factor-login', 'page', guessable),
  endpoint('GET', '/auth/settings/two-factor', 'two-factor-settings', 'page'),
  endpoint('POST', '/auth/settings/two-factor/start', 'two-factor-start', 'page'),
  endpoint('POST', '/auth/settings/two-factor/confirm', 'two-factor-confirm', 'page', guessable),
  endpoint('POST', '/auth/settings/two-factor/disable', 'two-factor-disable', 'page', guessable),
  endpoint('POST', '/auth/logout', 'logout', 'page'),
  // The web app's session (issue #47): a token for the browser session's person, and sign-out.
  endpoint('POST', '/auth/app/token', 'app-token', 'oauth-json'),
  endpoint('POST', '/auth/app/sign-out', 'app-sign-out', 'oauth-json'),
  endpoint('GET', '/auth/settings', 'settings', 'page'),
  endpoint('POST', '/auth/settings/token', 'reset-token', 'page'),
  endpoint('POST', '/auth/settings/apps/revoke', 'revoke-app-access', 'page'),
  endpoint('GET', '/auth/apps', 'app-console', 'page'),
  endpoint('POST', '/auth/apps', 'register-app', 'page'),
  endpoint('POST', '/auth/apps/secret', 'rotate-secret', 'page'),
  endpoint('POST', '/auth/apps/webhook', 'configure-webhook', 'page'),
  // Password reset and address change (issue #33): the mailed links' secrets are tried here.
  endpoint('GET', '/auth/password/forgot', 'forgot-password-form', 'page'),
  endpoint('POST', '/auth/password/forgot', 'request-password-reset', 'page', guessable),
  endpoint('GET', '/auth/password/reset', 'reset-password-form', 'page', guessable),
  endpoint('POST', '/auth/password/reset', 'reset-password', 'page', guessable),
  endpoint('POST', '/auth/settings/email', 'request-email-change', 'page', guessable),
  endpoint('GET', '/auth/email/confirm', 'confirm-email-form', 'page', guessable),
  endpoint('POST', '/auth/email/confirm', 'confirm-email', 'page', guessable),
  // A sign-up's address confirmation (issue #44).
  endpoint('GET', '/auth/email/verify', 'verify-email-form', 'page', guessable),
  endpoint('POST', '/auth/email/verify', 'verify-email', 'page', guessable),
  // The Decline of a project or workspace invitation mailed to an address without an account (issue #47).
  endpoint('GET', INVITATION_DECLINE_PATH, 'invitation-decline-form', 'page', guessable),
  endpoint('POST', INVITATION_DECLINE_PATH, 'invitation-decline', 'page', guessable),
  // Single sign-on (OpenID Connect): the redirect to a configured provider, and its callback
  // (which carries the provider's one-time code: counted per address).
  endpoint('GET', '/auth/sso/start', 'sso-start', 'page'),
  endpoint('GET', '/auth/sso/callback', 'sso-callback', 'page', guessable),
  // A sign-on whose email names an unverified account: its password, or a mailed link, links it.
  endpoint('POST', '/auth/sso/link', 'sso-link', 'page', guessable),
  endpoint('POST', '/auth/sso/link/mail', 'sso-link-mail', 'page', guessable),
  endpoint('GET', '/auth/sso/link/confirm', 'sso-link-confirm-form', 'page', guessable),
  endpoint('POST', '/auth/sso/link/confirm', 'sso-link-confirm', 'page', guessable),
  endpoint('GET', '/oauth/authorize', 'consent-form', 'page'),
  endpoint('POST', '/oauth/authorize', 'consent-decision', 'page', guessable),
  endpoint('POST', '/oauth/access_token', 'access-token', 'oauth-json', guessable),
  endpoint('GET', '/.well-known/oauth-authorization-server', 'authorization-server-metadata', 'none'),
  // Assistants (MCP): where the resource's authorization server is, and self-registration.
  endpoint('GET', PROTECTED_RESOURCE_METADATA_PATH, 'protected-resource-metadata', 'none'),
  endpoint('GET', `${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`, 'protected-resource-metadata', 'none'),
  endpoint('POST', '/oauth/register', 'register-client', 'oauth-json', guessable),
  // v8: where @doist/todoist-api-typescript 1.x's revokeAuthToken posts (client-constraints §3.1).
  endpoint('POST', '/sync/v8/access_tokens/revoke', 'revoke-with-secret', 'oauth-json', { ...revocation, dialect: 'sync-v8' }),
  endpoint('POST', '/sync/v9/access_tokens/revoke', 'revoke-with-secret', 'oauth-json', { ...revocation, dialect: 'sync-v9' }),
  endpoint('POST', '/sync/v9/access_tokens/migrate_personal_token', 'migrate-personal-token', 'oauth-json', { ...guessable, dialect: 'sync-v9' }),
  endpoint('POST', '/api/v1/access_tokens/revoke', 'revoke-with-secret', 'oauth-json', revocation),
  endpoint('DELETE', '/api/v1/access_tokens', 'revoke-with-secret', 'oauth-json', revocation),
  endpoint('POST', '/api/v1/revoke', 'revoke-rfc7009', 'oauth-json', revocation),
  endpoint('POST', '/api/v1/access_tokens/migrate_personal_token', 'migrate-personal-token', 'oauth-json', guessable),
  // An application's webhook, authenticated with its client credentials (HTTP Basic); it answers
  // as the rest of api/v1 does.
  endpoint('GET', '/api/v1/apps/webhook', 'app-webhook-get', 'todoist', guessable),
  endpoint('PUT', '/api/v1/apps/webhook', 'app-webhook-put', 'todoist', guessable),
  endpoint('DELETE', '/api/v1/apps/webhook', 'app-webhook-delete', 'todoist', guessable),
  // The first generation's log-in (its clients sent it over GET or POST): it takes a password,
  // not a token, so auth-oauth answers it rather than sync's first-generation dialect.
  endpoint('GET', '/API/login', 'legacy-login', 'login-error', { ...guessable, dialect: 'first-generation' }),
  endpoint('POST', '/API/login', 'legacy-login', 'login-error', { ...guessable, dialect: 'first-generation' }),
] as const;

/** Every handler name the list uses: auth-oauth must implement each (its map is typed by this). */
export type AuthHandler = (typeof AUTH_ENDPOINTS)[number]['handler'];
