import { DomainError } from '@doable/shared-errors';
import { nextCursor, requestedPage } from './page-cursor';
import type { RestCall } from './rest-call';

function call(query: Record<string, string>, userId = '7', operation = 'tasks.list'): RestCall {
  return { surface: 'rest-api-v1', operation, principal: { userId, scopes: ['data:read'], appId: null, tokenKind: 'personal' }, params: {}, query, body: {}, requestId: null };
}

function argumentOf(action: () => unknown): unknown {
  try {
    action();
  } catch (err) {
    if (err instanceof DomainError) return err.extra['argument'];
  }
  return undefined;
}

describe('api/v1 pages', () => {
  it('defaults to 50 from the start, and walks on with the cursor it issues', () => {
    const first = requestedPage(call({ project_id: '1' }));
    expect(first).toEqual({ limit: 50, offset: 0 });
    const cursor = nextCursor(call({ project_id: '1' }), first, true)!;
    expect(requestedPage(call({ project_id: '1', cursor }))).toEqual({ limit: 50, offset: 50 });
    expect(nextCursor(call({ project_id: '1' }), first, false)).toBeNull();
  });

  it('lets the page size change between pages (limit is not bound)', () => {
    const cursor = nextCursor(call({}), { limit: 10, offset: 0 }, true)!;
    expect(requestedPage(call({ cursor, limit: '25' }))).toEqual({ limit: 25, offset: 10 });
  });

  it('refuses a cursor for another user, other parameters, another endpoint, or made up', () => {
    const cursor = nextCursor(call({ project_id: '1' }), { limit: 5, offset: 0 }, true)!;
    expect(argumentOf(() => requestedPage(call({ project_id: '1', cursor }, '8')))).toBe('cursor');
    expect(argumentOf(() => requestedPage(call({ project_id: '2', cursor })))).toBe('cursor');
    expect(argumentOf(() => requestedPage(call({ project_id: '1', cursor }, '7', 'projects.list')))).toBe('cursor');
    expect(argumentOf(() => requestedPage(call({ cursor: 'bm90IGEgY3Vyc29y' })))).toBe('cursor');
    const forged = Buffer.from(JSON.stringify({ u: '7', p: 'x', o: -5 })).toString('base64url');
    expect(argumentOf(() => requestedPage(call({ cursor: forged })))).toBe('cursor');
  });

  it('refuses limits outside 1..200, saying what is expected', () => {
    expect(argumentOf(() => requestedPage(call({ limit: '201' })))).toBe('limit');
    expect(argumentOf(() => requestedPage(call({ limit: '0' })))).toBe('limit');
    expect(requestedPage(call({ limit: '200' }))).toEqual({ limit: 200, offset: 0 });
  });
});
