import type { Route } from '../routes/route';

/** What the edge reads a bearer token from (Express's request, as far as it matters here). */
export interface TokenSource {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body?: unknown;
  is(type: string): string | false | null;
}

/** The `token` form field, on a route that accepts it and a form-encoded body that has one. */
function formToken(request: TokenSource, route: Route): string | undefined {
  if (!route.formToken || !request.is('application/x-www-form-urlencoded')) return undefined;
  const body = request.body;
  if (body === null || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)['token'];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The Authorization header as the bearer strategy should see it: the client's own header, or,
 * on a route accepting the v8 `token` form field (and without a header), that field made into
 * one. What real clients send is the header (every official SDK, the community client); the
 * form field is sync-interface §5.1's v8-and-older rule. A token in the query string or an
 * `access_token` field is not looked at: URLs land in access logs, proxies and browser history.
 */
export function authorizationFor(request: TokenSource, route: Route): string | undefined {
  const header = request.headers['authorization'];
  const given = Array.isArray(header) ? header[0] : header;
  if (given !== undefined) return given;
  const token = formToken(request, route);
  return token === undefined ? undefined : `Bearer ${token}`;
}

/** The body forwarded to the service: without the `token` field the edge took as the credential (a token never leaves the edge). */
export function bodyWithoutFormToken(request: TokenSource, route: Route): unknown {
  if (formToken(request, route) === undefined || request.headers['authorization'] !== undefined) return request.body;
  const { token: _credential, ...rest } = request.body as Record<string, unknown>;
  return rest;
}
