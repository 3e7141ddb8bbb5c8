import { type Golden, goldenMismatch, repeatedKeys, unshapedLines, unstoredArguments } from '../../testing/field-goldens';
import { LABEL_ADD_ARGS, LABEL_FIELDS, LABEL_UPDATE_ARGS } from './label-fields';

/**
 * The label table against the golden answers of every dialect that has labels. The writers of
 * api/v1 and v9 and the OpenAPI objects are derived from the table; the others are written by
 * hand, and this is what holds them to it.
 */
const GOLDEN: readonly Golden[] = [
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'labels' },
  { dialect: 'restApiV1', file: 'rest-api-v1.keys.json', resource: 'label' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'labels' },
  { dialect: 'restV2', file: 'rest-v2.keys.json', resource: 'label' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'labels' },
  { dialect: 'v7', file: 'sync-v7.keys.json', resource: 'labels' },
  { dialect: 'restV1', file: 'rest-v1.keys.json', resource: 'label' },
];

describe('the label field table', () => {
  it.each(GOLDEN)('names the keys of the $dialect label in $file', (golden) => {
    expect(goldenMismatch(LABEL_FIELDS, golden)).toEqual({ missing: [], unnamed: [] });
  });

  it('gives each dialect a key once', () => {
    for (const dialect of ['apiV1', 'restApiV1', 'v9', 'restV2', 'v8', 'v7', 'restV1'] as const) expect(repeatedKeys(LABEL_FIELDS, dialect)).toEqual([]);
  });

  it('gives an OpenAPI shape to every field api/v1 or REST v2 writes', () => {
    expect(unshapedLines(LABEL_FIELDS)).toEqual([]);
  });

  it('takes as label_add and label_update arguments the fields a client may set, each a stored one', () => {
    expect(Object.keys(LABEL_ADD_ARGS).sort()).toEqual(['color', 'is_favorite', 'item_order', 'name']);
    expect(Object.keys(LABEL_UPDATE_ARGS).sort()).toEqual(['color', 'is_favorite', 'item_order', 'name']);
    expect(unstoredArguments(LABEL_FIELDS)).toEqual([]);
  });
});
