import { type Golden, goldenMismatch, repeatedKeys, unshapedLines, unstoredArguments } from '../../testing/field-goldens';
import { SECTION_ADD_ARGS, SECTION_FIELDS, SECTION_UPDATE_ARGS } from './section-fields';

/**
 * The section table against the golden answers of every dialect that has sections (v7 had
 * none). The writers of api/v1 and v9 and the OpenAPI objects are derived from the table; the
 * others are written by hand, and this is what holds them to it.
 */
const GOLDEN: readonly Golden[] = [
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'sections' },
  { dialect: 'restApiV1', file: 'rest-api-v1.keys.json', resource: 'section' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'sections' },
  { dialect: 'restV2', file: 'rest-v2.keys.json', resource: 'section' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'sections' },
  { dialect: 'restV1', file: 'rest-v1.keys.json', resource: 'section' },
];

describe('the section field table', () => {
  it.each(GOLDEN)('names the keys of the $dialect section in $file', (golden) => {
    expect(goldenMismatch(SECTION_FIELDS, golden)).toEqual({ missing: [], unnamed: [] });
  });

  it('gives each dialect a key once', () => {
    for (const dialect of ['apiV1', 'v9', 'restV2', 'v8', 'v7', 'restV1'] as const) expect(repeatedKeys(SECTION_FIELDS, dialect)).toEqual([]);
  });

  it('gives an OpenAPI shape to every field api/v1 or REST v2 writes', () => {
    expect(unshapedLines(SECTION_FIELDS)).toEqual([]);
  });

  it('takes as section_add and section_update arguments the fields a client may set, each a stored one', () => {
    expect(Object.keys(SECTION_ADD_ARGS).sort()).toEqual(['name', 'project_id', 'section_order']);
    expect(Object.keys(SECTION_UPDATE_ARGS).sort()).toEqual(['is_collapsed', 'name']);
    expect(unstoredArguments(SECTION_FIELDS)).toEqual([]);
  });
});
