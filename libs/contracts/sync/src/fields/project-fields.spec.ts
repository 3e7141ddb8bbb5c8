import { type Golden, goldenMismatch, repeatedKeys, unshapedLines, unstoredArguments } from '../../testing/field-goldens';
import { PROJECT_ADD_ARGS, PROJECT_FIELDS, PROJECT_UPDATE_ARGS } from './project-fields';

/**
 * The project table against the golden answers of every dialect that has projects. The writers
 * of api/v1 and v9 and the OpenAPI objects are derived from the table; the legacy ones (v8, v7,
 * REST v1) and REST v2's are written by hand, and this is what holds them to it.
 */
const GOLDEN: readonly Golden[] = [
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'projects' },
  { dialect: 'restApiV1', file: 'rest-api-v1.keys.json', resource: 'project' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'projects' },
  { dialect: 'restV2', file: 'rest-v2.keys.json', resource: 'project' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'projects' },
  { dialect: 'v7', file: 'sync-v7.keys.json', resource: 'projects' },
  { dialect: 'restV1', file: 'rest-v1.keys.json', resource: 'project' },
];

describe('the project field table', () => {
  it.each(GOLDEN)('names the keys of the $dialect project in $file', (golden) => {
    expect(goldenMismatch(PROJECT_FIELDS, golden)).toEqual({ missing: [], unnamed: [] });
  });

  it('gives each dialect a key once', () => {
    for (const dialect of ['apiV1', 'v9', 'restV2', 'v8', 'v7', 'restV1'] as const) expect(repeatedKeys(PROJECT_FIELDS, dialect)).toEqual([]);
  });

  it('gives an OpenAPI shape to every field api/v1 or REST v2 writes', () => {
    expect(unshapedLines(PROJECT_FIELDS)).toEqual([]);
  });

  it('takes as project_add and project_update arguments the fields a client may set, each a stored one', () => {
    expect(Object.keys(PROJECT_ADD_ARGS).sort()).toEqual(
      ['child_order', 'color', 'description', 'folder_id', 'is_collapsed', 'is_favorite', 'is_invite_only', 'name', 'parent_id', 'status', 'view_style', 'workspace_id'].sort(),
    );
    expect(Object.keys(PROJECT_UPDATE_ARGS).sort()).toEqual(
      ['color', 'description', 'folder_id', 'is_collapsed', 'is_favorite', 'is_invite_only', 'is_link_sharing_enabled', 'name', 'status', 'view_style'].sort(),
    );
    expect(unstoredArguments(PROJECT_FIELDS)).toEqual([]);
  });
});
