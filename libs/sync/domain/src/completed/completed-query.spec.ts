import { DomainError } from '@doable/shared-errors';
import { decodeCursor, encodeCursor } from './completed-cursor';
import { parseCompletedQuery, parseCompletedSearch, parseGetAllQuery } from './completed-query';

const window = { since: '2030-06-01T00:00:00', until: '2030-06-20T00:00:00' };

function errorOf(run: () => unknown): { code: string; argument: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, argument: error.extra['argument'] };
    throw error;
  }
  throw new Error('no error');
}

describe('completed history parameters', () => {
  it('keeps filter_query, filter_lang and workspace_id rather than dropping them', () => {
    const query = parseCompletedQuery('due', { ...window, filter_query: '#Work & p1', filter_lang: 'de', workspace_id: '42' });
    expect(query).toMatchObject({ by: 'due', filterQuery: '#Work & p1', filterLang: 'de', workspaceId: '42' });
    expect(parseCompletedQuery('completion', window)).toMatchObject({ filterQuery: null, filterLang: null, workspaceId: null, limit: 50 });
  });

  it.each([
    ['a non-numeric workspace_id', { workspace_id: 'abc' }, 'workspace_id'],
    ['a filter over 1024 characters', { filter_query: 'p1 | '.repeat(300) }, 'filter_query'],
    ['a limit over 200', { limit: '201' }, 'limit'],
  ])('refuses %s with a coded 400 naming it', (_name, extra, argument) => {
    expect(errorOf(() => parseCompletedQuery('completion', { ...window, ...extra }))).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument });
  });

  it('reads completed/search: a required query and a limit', () => {
    expect(parseCompletedSearch({ query: '  milk ', limit: '5' })).toEqual({ query: 'milk', limit: 5 });
    expect(errorOf(() => parseCompletedSearch({ query: '' }))).toEqual({ code: 'ARGUMENT_MISSING', argument: 'query' });
  });

  it('reads tasks/completed: label, offset and bounds, all optional', () => {
    expect(parseGetAllQuery({})).toEqual({ projectId: null, label: null, since: null, until: null, limit: 30, offset: 0 });
    expect(parseGetAllQuery({ label: 'errand', offset: '30', since: '2030-01-01T00:00:00Z' })).toMatchObject({ label: 'errand', offset: 30, since: new Date('2030-01-01T00:00:00Z') });
  });
});

describe('completed history cursors', () => {
  const position = { key: '2030-06-10T08:00:00.000Z', id: '123' };

  it('round-trips for the same user and query', () => {
    const query = parseCompletedQuery('completion', { ...window, filter_query: 'p1' });
    expect(decodeCursor('7', query, encodeCursor('7', query, position))).toEqual(position);
    const search = parseCompletedSearch({ query: 'milk' });
    expect(decodeCursor('7', search, encodeCursor('7', search, position))).toEqual(position);
  });

  it.each([
    ['another filter', { filter_query: 'p2' }],
    ['another filter language', { filter_lang: 'de' }],
    ['a workspace', { workspace_id: '9' }],
    ['another project', { project_id: '5' }],
  ])('is refused for %s', (_name, change) => {
    const cursor = encodeCursor('7', parseCompletedQuery('completion', { ...window, filter_query: 'p1' }), position);
    const other = parseCompletedQuery('completion', { ...window, filter_query: 'p1', ...change });
    expect(errorOf(() => decodeCursor('7', other, cursor))).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'cursor' });
  });

  it('is refused for another user and for a search cursor used on a window', () => {
    const query = parseCompletedQuery('completion', window);
    expect(errorOf(() => decodeCursor('8', query, encodeCursor('7', query, position)))).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'cursor' });
    const search = parseCompletedSearch({ query: 'milk', limit: '50' });
    expect(errorOf(() => decodeCursor('7', query, encodeCursor('7', search, position)))).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'cursor' });
  });
});
