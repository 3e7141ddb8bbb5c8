import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ROUTES, type Route, RouteTable } from './route-table';

const projectRoute: Route = { method: 'GET', path: '/rest/v2/projects/:id', subject: SyncSubjects.edge, dialect: 'rest-v2', auth: 'bearer' };
const projectDelete: Route = { method: 'DELETE', path: '/rest/v2/projects/:id', subject: SyncSubjects.edge, dialect: 'rest-v2', auth: 'bearer' };
const commentRoute: Route = { method: 'GET', path: '/rest/v2/projects/:projectId/comments/:commentId', subject: SyncSubjects.edge, dialect: 'rest-v2', auth: 'none' };
const dottedRoute: Route = { method: 'GET', path: '/files/v1.json', subject: SyncSubjects.edge, dialect: 'rest-v1', auth: 'none' };

describe('RouteTable', () => {
  describe('with the default routes', () => {
    const table = new RouteTable();

    it.each([
      ['/sync/v8/sync', 'sync-v8'],
      ['/sync/v9/sync', 'sync-v9'],
      ['/api/v1/sync', 'sync-api-v1'],
    ])('matches POST %s with dialect %s', (path, dialect) => {
      const resolution = table.resolve('POST', path);
      expect(resolution.kind).toBe('match');
      if (resolution.kind !== 'match') return;
      expect(resolution.match.route.dialect).toBe(dialect);
      expect(resolution.match.route.subject).toBe(SyncSubjects.edge);
      expect(resolution.match.params).toEqual({});
    });

    it.each(['/api/v1/tasks/completed', '/api/v1/completed/search', '/api/v1/tasks/completed/by_due_date'])('sends GET %s to completed history, not to the REST task by id', (path) => {
      const resolution = table.resolve('GET', path);
      expect(resolution.kind === 'match' && resolution.match.route.subject).toBe(SyncSubjects.completed);
    });

    it.each([
      ['POST', '/auth/login'],
      ['POST', '/auth/signup'],
      ['POST', '/oauth/authorize'],
      ['POST', '/oauth/access_token'],
      ['POST', '/sync/v8/access_tokens/revoke'],
      ['POST', '/sync/v9/access_tokens/revoke'],
      ['POST', '/api/v1/access_tokens/revoke'],
      ['DELETE', '/api/v1/access_tokens'],
      ['POST', '/api/v1/revoke'],
      ['POST', '/api/v1/access_tokens/migrate_personal_token'],
      ['POST', '/auth/password/forgot'],
      ['GET', '/auth/password/reset'],
      ['POST', '/auth/password/reset'],
      ['POST', '/auth/settings/email'],
      ['GET', '/auth/email/confirm'],
      ['POST', '/auth/email/confirm'],
      // Single sign-on's callback carries the provider's one-time code.
      ['GET', '/auth/sso/callback'],
    ] as const)('counts unauthenticated %s %s per client address', (method, path) => {
      const resolution = table.resolve(method, path);
      expect(resolution.kind === 'match' && resolution.match.route).toMatchObject({ auth: 'none', limitBy: 'address' });
    });

    it.each([
      ['GET', '/auth/login'],
      ['GET', '/oauth/authorize'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/auth/sso/start'],
    ] as const)('leaves the page %s %s unlimited (reading a form tries nothing)', (method, path) => {
      const resolution = table.resolve(method, path);
      expect(resolution.kind === 'match' && resolution.match.route.limitBy).toBeUndefined();
    });

    it('uses ROUTES when no routes are given', () => {
      const resolution = table.resolve('POST', '/api/v1/sync');
      expect(resolution.kind === 'match' && resolution.match.route).toBe(ROUTES[1]);
    });

    it('routes the api/v1 PUT endpoints (workspace invitation answers) to the rest service, PUT only', () => {
      const resolution = table.resolve('PUT', '/api/v1/workspaces/invitations/c0de%2Dx/accept');
      expect(resolution.kind === 'match' && resolution.match).toMatchObject({ route: { method: 'PUT', dialect: 'rest-api-v1', auth: 'bearer' }, params: { invite_code: 'c0de-x' } });
      expect(table.resolve('PUT', '/api/v1/workspaces/invitations/c0de/reject').kind).toBe('match');
      expect(table.resolve('POST', '/api/v1/workspaces/invitations/c0de/accept')).toEqual({ kind: 'method-not-allowed', allowed: ['PUT'] });
    });

    it('routes the api/v1 workspace and folder endpoints, fixed paths before :id', () => {
      const route = (method: 'GET' | 'POST' | 'DELETE', path: string) => {
        const resolution = table.resolve(method, path);
        return resolution.kind === 'match' ? resolution.match.route.path : resolution.kind;
      };
      expect(route('GET', '/api/v1/workspaces/users')).toBe('/api/v1/workspaces/users');
      expect(route('GET', '/api/v1/workspaces/9')).toBe('/api/v1/workspaces/:id');
      expect(route('DELETE', '/api/v1/workspaces/9/users/4')).toBe('/api/v1/workspaces/:id/users/:user_id');
      expect(route('POST', '/api/v1/projects/move_to_workspace')).toBe('/api/v1/projects/move_to_workspace');
      expect(route('DELETE', '/api/v1/folders/3')).toBe('/api/v1/folders/:id');
    });

    it('accepts a trailing slash', () => {
      const resolution = table.resolve('POST', '/api/v1/sync/');
      expect(resolution.kind).toBe('match');
      expect(resolution.kind === 'match' && resolution.match.route.dialect).toBe('sync-api-v1');
    });

    it('does not accept more than one trailing slash', () => {
      expect(table.resolve('POST', '/api/v1/sync//')).toEqual({ kind: 'none' });
    });

    it('answers method-not-allowed with the allowed methods when only the method differs', () => {
      expect(table.resolve('GET', '/sync/v9/sync')).toEqual({ kind: 'method-not-allowed', allowed: ['POST'] });
      // v8 was documented POST only.
      expect(table.resolve('GET', '/sync/v8/sync')).toEqual({ kind: 'method-not-allowed', allowed: ['POST'] });
    });

    it.each(['/', '', '/sync/v9', '/sync/v9/sync/extra', '/SYNC/V9/SYNC', '/api/v1/syncx', 'x/api/v1/sync'])('answers none for %j', (path) => {
      expect(table.resolve('POST', path)).toEqual({ kind: 'none' });
    });
  });

  describe('with parameterised routes', () => {
    const table = new RouteTable([projectRoute, projectDelete, commentRoute, dottedRoute]);

    it('extracts a :id param', () => {
      expect(table.resolve('GET', '/rest/v2/projects/2203306141')).toEqual({
        kind: 'match',
        match: { route: projectRoute, params: { id: '2203306141' } },
      });
    });

    it('picks the route of the requested method among routes on the same path', () => {
      const resolution = table.resolve('DELETE', '/rest/v2/projects/7/');
      expect(resolution).toEqual({ kind: 'match', match: { route: projectDelete, params: { id: '7' } } });
    });

    it('extracts several params in order', () => {
      const resolution = table.resolve('GET', '/rest/v2/projects/12/comments/34');
      expect(resolution).toEqual({ kind: 'match', match: { route: commentRoute, params: { projectId: '12', commentId: '34' } } });
    });

    it('URL-decodes params', () => {
      const resolution = table.resolve('GET', '/rest/v2/projects/a%20b%2Fc');
      expect(resolution.kind === 'match' && resolution.match.params).toEqual({ id: 'a b/c' });
    });

    it('does not let a param span several segments', () => {
      expect(table.resolve('GET', '/rest/v2/projects/1/2')).toEqual({ kind: 'none' });
    });

    it('does not match an empty param', () => {
      expect(table.resolve('GET', '/rest/v2/projects/')).toEqual({ kind: 'none' });
    });

    it('lists every allowed method of the path on a 405', () => {
      expect(table.resolve('POST', '/rest/v2/projects/9')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'DELETE'] });
    });

    it('treats regex metacharacters in a literal path as literals', () => {
      expect(table.resolve('GET', '/files/v1.json').kind).toBe('match');
      expect(table.resolve('GET', '/files/v1xjson')).toEqual({ kind: 'none' });
    });
  });

  it('answers none for any path when there are no routes', () => {
    expect(new RouteTable([]).resolve('GET', '/sync/v9/sync')).toEqual({ kind: 'none' });
  });
});

describe('RouteTable with a malformed escape in a path parameter', () => {
  it('answers INVALID_ARGUMENT_VALUE instead of throwing a URIError', () => {
    const table = new RouteTable([{ method: 'GET', path: '/items/:id', subject: ROUTES[0].subject, dialect: 'rest-v2', auth: 'bearer' }]);
    let error: unknown;
    try {
      table.resolve('GET', '/items/%E0%A4%A');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('INVALID_ARGUMENT_VALUE');
    expect((error as DomainError).extra).toEqual({ argument: 'id' });
  });
});

describe('where a route accepts the token', () => {
  it('takes a token form field on every v8-and-older route and on no other (sync-interface §5.1)', () => {
    const withFormToken = ROUTES.filter((route) => route.formToken === true).map((route) => `${route.method} ${route.path}`);
    const old = new Set(['sync-v8', 'sync-v7', 'sync-v6']);
    expect(withFormToken).toEqual(ROUTES.filter((route) => old.has(route.dialect)).map((route) => `${route.method} ${route.path}`));
    expect(withFormToken).toEqual(
      expect.arrayContaining(['POST /sync/v8/quick/add', 'POST /sync/v8/access_tokens/revoke', 'POST /API/v7/sync', 'POST /api/v7/sync', 'POST /API/v6/sync', 'POST /API/v7/quick/add']),
    );
  });

  it('takes token/api_token from the query or form on every first-generation route with a bearer, and on no other', () => {
    const legacy = ROUTES.filter((route) => route.legacyToken === true).map((route) => `${route.method} ${route.path}`);
    expect(legacy).toEqual(ROUTES.filter((route) => route.dialect === 'first-generation' && route.auth === 'bearer').map((route) => `${route.method} ${route.path}`));
    expect(legacy).toEqual(expect.arrayContaining(['GET /API/getProjects', 'POST /API/addItem', 'POST /TodoistSync/:version/sync']));
    expect(ROUTES.find((route) => route.path === '/API/login')).toMatchObject({ auth: 'none', limitBy: 'address' });
    expect(ROUTES.filter((route) => route.dialect === 'first-generation' && route.formToken)).toEqual([]);
  });

  it('marks the first generation\'s writes over GET, and nothing else, as writing on GET', () => {
    const marked = ROUTES.filter((route) => route.writesOnGet === true).map((route) => `${route.method} ${route.path}`);
    expect(marked.every((route) => route.startsWith('GET /API/') || route.startsWith('GET /TodoistSync/'))).toBe(true);
    expect(marked).toEqual(expect.arrayContaining(['GET /API/addItem', 'GET /API/completeItems', 'GET /TodoistSync/:version/sync']));
    expect(marked).not.toContain('GET /API/getProjects');
    expect(marked).not.toContain('GET /TodoistSync/:version/get');
  });

  it('marks only token revocations as idempotent writes', () => {
    const marked = ROUTES.filter((route) => route.idempotent === true).map((route) => `${route.method} ${route.path}`);
    expect(marked.sort()).toEqual(['DELETE /api/v1/access_tokens', 'POST /api/v1/access_tokens/revoke', 'POST /api/v1/revoke', 'POST /sync/v8/access_tokens/revoke', 'POST /sync/v9/access_tokens/revoke']);
  });

  it('serves the first generation at /API/ only, never beside /api/v1', () => {
    const table = new RouteTable();
    expect(table.resolve('GET', '/API/getProjects')).toMatchObject({ kind: 'match' });
    expect(table.resolve('GET', '/api/getProjects')).toEqual({ kind: 'none' });
    expect(table.resolve('POST', '/api/v1/sync')).toMatchObject({ kind: 'match', match: { route: { dialect: 'sync-api-v1' } } });
  });
});
