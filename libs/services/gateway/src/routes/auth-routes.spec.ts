import { AUTH_ENDPOINTS, AuthSubjects } from '@doable/contracts-auth';
import { RouteTable } from './route-table';

describe('the auth routes, from the auth contracts\' list', () => {
  const table = new RouteTable();

  it.each(AUTH_ENDPOINTS.map((endpoint) => [endpoint.method, endpoint.path, endpoint] as const))('sends %s %s to auth-oauth without a token, under the list\'s facts', (method, path, endpoint) => {
    const resolution = table.resolve(method, path);
    expect(resolution.kind).toBe('match');
    if (resolution.kind !== 'match') return;
    const { route } = resolution.match;
    expect(route).toMatchObject({ method, path, subject: AuthSubjects.edge, dialect: endpoint.dialect, auth: 'none' });
    expect(route.limitBy).toBe(endpoint.guessable ? 'address' : undefined);
    expect(route.idempotent).toBe(endpoint.idempotent);
  });

  it('routes the first generation\'s log-in to auth-oauth in its dialect, counted per address', () => {
    for (const method of ['GET', 'POST']) {
      expect(table.resolve(method, '/API/login')).toMatchObject({ kind: 'match', match: { route: { subject: AuthSubjects.edge, dialect: 'first-generation', auth: 'none', limitBy: 'address' } } });
    }
  });
});
