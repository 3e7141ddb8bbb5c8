import type { Route } from '../routes/route';

/** What the edge reads a bearer token from (Express's request, as far as it matters here). */
export interface TokenSource {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body?: unknown;
  /** The parsed query string (read only on first-generation routes). */
  readonly query?: unknown;
  is(type: string): string | false | null;
}

/** The first generation's token parameters, in the order they are looked for. */
const LEGACY_TOKEN_FIELDS = ['token', 'api_token'] as const;

function textField(source: unknown, name: string): string | undefined {
  if (source === null || typeof source !== 'object') return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * On a first-generation route: `token` or `api_token` from the form, else from the query string
 * (a JSON body is no form: its fields are not looked at, as for formToken).
 */
function legacyToken(request: TokenSource, route: Route): string | undefined {
  if (!route.legacyToken) return undefined;
  const form = isForm(request) ? request.body : undefined;
  for (const source of [form, request.query]) {
    for (const name of LEGACY_TOKEN_FIELDS) {
      const value = textField(source, name);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/**
 * A form body: url-encoded, or multipart on a route that takes multipart (its fields were
 * parsed into `body` by the edge before authentication; for a streamed upload, the fields that
 * precede the file part).
 */
function isForm(request: TokenSource): boolean {
  return Boolean(request.is('application/x-www-form-urlencoded') || request.is('multipart/form-data'));
}

/** The `token` form field, on a route that accepts it and a form-encoded body that has one. */
function formToken(request: TokenSource, route: Route): string | undefined {
  if (!route.formToken || !isForm(request)) return undefined;
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
  const token = formToken(request, route) ?? legacyToken(request, route);
  return token === undefined ? undefined : `Bearer ${token}`;
}

/** The body forwarded to the service: without the `token` field the edge took as the credential (a token never leaves the edge). */
export function bodyWithoutFormToken(request: TokenSource, route: Route): unknown {
  if (route.legacyToken) return withoutLegacyTokens(request.body);
  if (formToken(request, route) === undefined || request.headers['authorization'] !== undefined) return request.body;
  const { token: _credential, ...rest } = request.body as Record<string, unknown>;
  return rest;
}

/**
 * Fields named like a first-generation token dropped from an object (a form body, a query): on
 * those routes they are credentials wherever they are, used or not (a second copy, or one sent
 * beside an Authorization header), and no service needs them.
 */
function withoutLegacyTokens(source: unknown): unknown {
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return source;
  const rest: Record<string, unknown> = { ...(source as Record<string, unknown>) };
  for (const name of LEGACY_TOKEN_FIELDS) delete rest[name];
  return rest;
}

/** The query forwarded to the service: on a first-generation route, without its token parameters. */
export function queryWithoutTokens(request: TokenSource, route: Route): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return route.legacyToken ? (withoutLegacyTokens(query) as Record<string, unknown>) : query;
}
