import { type Golden, goldenMismatch, repeatedKeys, unshapedLines, unstoredArguments } from '../../testing/field-goldens';
import { COMMENT_ADD_ARGS, COMMENT_FIELDS, COMMENT_UPDATE_ARGS } from './comment-fields';

/**
 * The comment table against the golden answers of every dialect: task comments (`notes`) and,
 * where the dialect has them apart, project comments (`project_notes`). The writers of api/v1
 * and v9 and the OpenAPI objects are derived from the table; the others are written by hand,
 * and this is what holds them to it.
 */
const GOLDEN: readonly Golden[] = [
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'notes' },
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'project_notes' },
  { dialect: 'restApiV1', file: 'rest-api-v1.keys.json', resource: 'comment' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'notes' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'project_notes' },
  { dialect: 'restV2', file: 'rest-v2.keys.json', resource: 'comment' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'notes' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'project_notes' },
  { dialect: 'v7', file: 'sync-v7.keys.json', resource: 'notes' },
  { dialect: 'restV1', file: 'rest-v1.keys.json', resource: 'comment' },
];

describe('the comment field table', () => {
  it.each(GOLDEN)('names the keys of the $dialect $resource in $file', (golden) => {
    expect(goldenMismatch(COMMENT_FIELDS, golden)).toEqual({ missing: [], unnamed: [] });
  });

  it('gives each dialect a key once', () => {
    for (const dialect of ['apiV1', 'v9', 'restV2', 'v8', 'v7', 'restV1'] as const) expect(repeatedKeys(COMMENT_FIELDS, dialect)).toEqual([]);
  });

  it('gives an OpenAPI shape to every field api/v1 or REST v2 writes', () => {
    expect(unshapedLines(COMMENT_FIELDS)).toEqual([]);
  });

  it('takes as note_add and note_update arguments the fields a client may set, each a stored one', () => {
    expect(Object.keys(COMMENT_ADD_ARGS)).toEqual(['item_id', 'project_id', 'content', 'file_attachment', 'uids_to_notify']);
    expect(Object.keys(COMMENT_UPDATE_ARGS)).toEqual(['content', 'file_attachment', 'uids_to_notify']);
    expect(unstoredArguments(COMMENT_FIELDS)).toEqual([]);
  });
});
