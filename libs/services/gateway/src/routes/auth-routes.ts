import { AUTH_ENDPOINTS, AuthSubjects } from '@doable/contracts-auth';
import type { Route } from './route';

/**
 * Accounts, pages, the OAuth 2.0 flow and the first generation's log-in, served by auth-oauth
 * from the one list in the auth contracts (auth-oauth dispatches on the same list). None takes a
 * bearer token: auth-oauth checks each route's own credential.
 */
export const AUTH_ROUTES: readonly Route[] = AUTH_ENDPOINTS.map(
  (endpoint): Route => ({
    method: endpoint.method,
    path: endpoint.path,
    subject: AuthSubjects.edge,
    dialect: endpoint.dialect,
    auth: 'none',
    // A route where credentials, codes or secrets are tried: counted against the auth budget.
    ...(endpoint.guessable ? { limitBy: 'address' as const } : {}),
    ...(endpoint.idempotent ? { idempotent: true } : {}),
  }),
);
