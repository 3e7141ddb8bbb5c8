import { FirstGenerationParams } from './first-generation-params';
import { FirstGenerationRefusal } from './first-generation-refusal';
import { callOf } from './first-generation.service';
import { filterOf, queryType } from './first-generation-query';

describe('first-generation parameters', () => {
  const params = (query: Record<string, string | string[]>, body: unknown = null) => new FirstGenerationParams({ query, body });

  it('reads the query and the form together, the form winning', () => {
    const p = params({ project_id: '1', content: 'query' }, { content: 'form' });
    expect([p.text('project_id'), p.text('content'), p.text('none')]).toEqual(['1', 'form', undefined]);
    expect(p.has('content')).toBe(true);
  });

  it('reads JSON id lists and refuses what is not one', () => {
    expect(params({ ids: '[9000000001,"9000000002"]' }).idList('ids')).toEqual(['9000000001', '9000000002']);
    for (const bad of ['x', '{}', '[1.5]', '["$1"]', '[0]']) expect(() => params({ ids: bad }).idList('ids')).toThrow(FirstGenerationRefusal);
    expect(() => params({}).idList('ids')).toThrow(expect.objectContaining({ tag: 'ERROR_ARGUMENT_MISSING' }));
    expect(() => params({ ids: '[1,2,3]' }).idList('ids', 2)).toThrow(expect.objectContaining({ tag: 'ERROR_INVALID_ARGUMENT' }));
  });

  it('refuses an id that is none with the refusal the call names', () => {
    expect(() => params({ project_id: 'abc' }).id('project_id', FirstGenerationRefusal.projectNotFound())).toThrow(expect.objectContaining({ tag: 'ERROR_PROJECT_NOT_FOUND' }));
    expect(params({}).optionalId('project_id', FirstGenerationRefusal.projectNotFound())).toBeUndefined();
    expect(() => params({ offset: '-1' }).integer('offset', 0, 10)).toThrow(FirstGenerationRefusal);
  });
});

describe('first-generation paths and searches', () => {
  it('knows its calls and versions, and nothing else', () => {
    expect(callOf('/API/getProjects')).toBe('getProjects');
    expect(callOf('/TodoistSync/v5.3/syncAndGetUpdated')).toBe('syncAndGetUpdated');
    expect(callOf('/TodoistSync/v2/get')).toBe('get');
    expect(callOf('/TodoistSync/v9/get')).toBeUndefined();
    expect(callOf('/API/deleteUser')).toBeUndefined();
  });

  it('names search types and translates the old date form', () => {
    expect(['2007-4-29T10:13', 'overdue', 'p1', '!!2', '@home', 'tomorrow'].map(queryType)).toEqual(['date', 'overdue', 'priority', 'priority', 'label', 'date']);
    expect(filterOf('2007-4-29T10:13')).toBe('2007-04-29');
    expect(filterOf('!!1')).toBe('p1');
    expect(filterOf(' overdue ')).toBe('overdue');
  });
});
