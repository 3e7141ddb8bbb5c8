import { type Golden, goldenMismatch, repeatedKeys, unshapedLines, unstoredArguments } from '../../testing/field-goldens';
import { FILTER_ADD_ARGS, FILTER_FIELDS, FILTER_UPDATE_ARGS } from './filter-fields';

/**
 * The filter table against the golden answers of every sync dialect (REST has no filters). The
 * writers of api/v1 and v9 are derived from the table; v8's and v7's are written by hand, and
 * this is what holds them to it.
 */
const GOLDEN: readonly Golden[] = [
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'filters' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'filters' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'filters' },
  { dialect: 'v7', file: 'sync-v7.keys.json', resource: 'filters' },
];

describe('the filter field table', () => {
  it.each(GOLDEN)('names the keys of the $dialect filter in $file', (golden) => {
    expect(goldenMismatch(FILTER_FIELDS, golden)).toEqual({ missing: [], unnamed: [] });
  });

  it('gives each dialect a key once, and REST none', () => {
    for (const dialect of ['apiV1', 'v9', 'v8', 'v7'] as const) expect(repeatedKeys(FILTER_FIELDS, dialect)).toEqual([]);
    expect(Object.values(FILTER_FIELDS).filter((line) => 'restV2' in line || 'restV1' in line)).toEqual([]);
  });

  it('gives a shape to every field api/v1 writes', () => {
    expect(unshapedLines(FILTER_FIELDS)).toEqual([]);
  });

  it('takes as filter_add and filter_update arguments the fields a client may set, each a stored one', () => {
    expect(Object.keys(FILTER_ADD_ARGS).sort()).toEqual(['color', 'description', 'is_favorite', 'item_order', 'name', 'query']);
    expect(Object.keys(FILTER_UPDATE_ARGS).sort()).toEqual(['color', 'description', 'is_favorite', 'item_order', 'name', 'query']);
    expect(unstoredArguments(FILTER_FIELDS)).toEqual([]);
  });
});
