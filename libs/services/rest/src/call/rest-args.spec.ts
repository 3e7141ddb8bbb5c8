import { DomainError } from '@doable/shared-errors';
import { idList, nullableId, optionalBoolean, optionalId, optionalInt, optionalString, requiredString } from './rest-args';

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (err) {
    return err instanceof DomainError ? `${err.code}:${String(err.extra['argument'])}` : 'not a DomainError';
  }
}

describe('REST argument readers', () => {
  it.each([
    ['a comma list', { ids: '1,2, 3' }],
    ['bracket parameters', { 'ids[]': ['1', '2', '3'] }],
    ['repeated parameters', { ids: ['1', '2', '3'] }],
    ['a JSON list of strings', { ids: '["1","2","3"]' }],
    ['a JSON list of numbers', { ids: '[1,2,3]' }],
  ])('reads ids sent as %s', (_encoding, query) => {
    expect(idList(query, 'ids')).toEqual(['1', '2', '3']);
  });

  it('refuses malformed id lists with a coded 400 naming the argument', () => {
    expect(codeOf(() => idList({ ids: '[1,' }, 'ids'))).toBe('INVALID_ARGUMENT_VALUE:ids');
    expect(codeOf(() => idList({ ids: '1;drop table' }, 'ids'))).toBe('INVALID_ARGUMENT_VALUE:ids');
    expect(codeOf(() => idList({ ids: Array.from({ length: 201 }, (_, i) => String(i)).join(',') }, 'ids'))).toBe('INVALID_ARGUMENT_VALUE:ids');
    expect(idList({}, 'ids')).toBeUndefined();
    expect(idList({ ids: '' }, 'ids')).toEqual([]);
  });

  it('reads ids as strings from JSON numbers (REST v1) and strings, with 0 and null meaning none where allowed', () => {
    expect(optionalId({ project_id: 2200000001 }, 'project_id')).toBe('2200000001');
    expect(optionalId({ project_id: '2200000001' }, 'project_id')).toBe('2200000001');
    expect(nullableId({ section_id: 0 }, 'section_id')).toBeNull();
    expect(nullableId({ section_id: null }, 'section_id')).toBeNull();
    expect(codeOf(() => optionalId({ project_id: true }, 'project_id'))).toBe('INVALID_ARGUMENT_VALUE:project_id');
    expect(codeOf(() => optionalId({ project_id: -1 }, 'project_id'))).toBe('INVALID_ARGUMENT_VALUE:project_id');
  });

  it('reads integers from JSON and query strings, within bounds', () => {
    expect(optionalInt({ limit: '50' }, 'limit')).toBe(50);
    expect(optionalInt({ priority: 4 }, 'priority', { min: 1, max: 4 })).toBe(4);
    expect(codeOf(() => optionalInt({ priority: 5 }, 'priority', { min: 1, max: 4 }))).toBe('INVALID_ARGUMENT_VALUE:priority');
    expect(codeOf(() => optionalInt({ limit: '1.5' }, 'limit'))).toBe('INVALID_ARGUMENT_VALUE:limit');
    expect(codeOf(() => optionalInt({ limit: ['1', '2'] }, 'limit'))).toBe('INVALID_ARGUMENT_VALUE:limit');
  });

  it('reads booleans in their JSON and query spellings', () => {
    expect([true, 'true', '1', 1].map((value) => optionalBoolean({ flag: value }, 'flag'))).toEqual([true, true, true, true]);
    expect([false, 'false', '0', 0].map((value) => optionalBoolean({ flag: value }, 'flag'))).toEqual([false, false, false, false]);
    expect(codeOf(() => optionalBoolean({ flag: 'yes' }, 'flag'))).toBe('INVALID_ARGUMENT_VALUE:flag');
  });

  it('requires strings that are present and not blank, and bounds their length', () => {
    expect(requiredString({ content: 'x' }, 'content')).toBe('x');
    expect(codeOf(() => requiredString({ content: '  ' }, 'content'))).toBe('ARGUMENT_MISSING:content');
    expect(codeOf(() => requiredString({}, 'content'))).toBe('ARGUMENT_MISSING:content');
    expect(codeOf(() => optionalString({ content: 42 }, 'content'))).toBe('INVALID_ARGUMENT_VALUE:content');
    expect(codeOf(() => optionalString({ name: 'x'.repeat(11) }, 'name', 10))).toBe('INVALID_ARGUMENT_VALUE:name');
  });
});
