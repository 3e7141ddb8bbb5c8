import { AUTH_ENDPOINTS } from './auth-endpoints';

describe('the auth endpoint list', () => {
  it('names every route once per method and path', () => {
    const keys = AUTH_ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('holds literal paths only: auth-oauth finds a route by its exact path, without a trailing slash', () => {
    for (const { path } of AUTH_ENDPOINTS) expect(path).toMatch(/^(\/[A-Za-z0-9_.-]+)+$/);
  });

  it('gives each handler one error form, so a refusal does not depend on which of its routes was called', () => {
    const forms = new Map<string, Set<string>>();
    for (const { handler, errors } of AUTH_ENDPOINTS) forms.set(handler, (forms.get(handler) ?? new Set()).add(errors));
    expect([...forms].filter(([, found]) => found.size > 1)).toEqual([]);
  });

  it('refuses nothing only on the metadata documents, which are read with GET', () => {
    expect(AUTH_ENDPOINTS.filter((endpoint) => endpoint.errors === 'none').map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual([
      'GET /.well-known/oauth-authorization-server',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/mcp',
    ]);
  });

  it('marks as idempotent only token revocations, each counted per address', () => {
    const idempotent = AUTH_ENDPOINTS.filter((endpoint) => endpoint.idempotent === true);
    expect(idempotent.map((endpoint) => endpoint.handler)).toEqual(expect.arrayContaining(['revoke-with-secret', 'revoke-rfc7009']));
    expect(idempotent.every((endpoint) => endpoint.handler.startsWith('revoke-') && endpoint.guessable === true)).toBe(true);
  });
});
