import { argShape, type FieldTable, openApiShape, PROJECT_FIELDS } from '@doable/contracts-sync';
import { fieldRowWriter } from '@doable/sync-dialects';
import { type Project, PROJECT_COMPUTED_COLUMNS, selectList } from '@doable/sync-domain';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import { z } from 'zod';

const ADA = '7652';

/**
 * A project field that lives only here (as task-field-added.integration-spec.ts does for a task
 * field): its migration is the ALTER TABLE below, its table line is WITH_EMOJI's `emoji`, and
 * this spec is its test. Every consumer derived from the project table (the SELECT list, the
 * api/v1 and v9 writers, the OpenAPI objects, the command arguments) takes the new field with
 * no other change; the project's computed `shared` is still selected with it.
 */
const WITH_EMOJI = {
  ...PROJECT_FIELDS,
  emoji: {
    column: { type: 'text', nullable: true },
    args: { add: z.string().max(8).nullish(), update: z.string().max(8).nullish() },
    apiV1: 'emoji',
    v9: 'emoji',
    schema: z.string().nullable(),
    restV2: { key: 'emoji', render: 'value' },
    backup: true,
    template: false,
    csv: [],
  },
} as const satisfies FieldTable;

type EmojiProject = Project & { emoji: string | null };

describe('a project field added only in a table line (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  let projectId: string;
  let row: EmojiProject;

  beforeAll(async () => {
    await harness.start('project_field_added', { [ADA]: 'ada@pfa.test' });
    projectId = await harness.create(ADA, 'project_add', { name: 'Garden' });
    // The field's migration.
    await harness.dataSource.query('ALTER TABLE sync.projects ADD COLUMN emoji text');
    await harness.dataSource.query(`UPDATE sync.projects SET emoji = 'tulip' WHERE id = $1`, [projectId]);
    [row] = await harness.dataSource.query<EmojiProject[]>(`SELECT ${selectList(WITH_EMOJI, PROJECT_COMPUTED_COLUMNS)} FROM sync.projects WHERE id = $1`, [projectId]);
  });
  afterAll(() => harness.stop());

  it('is read by the SELECT list the table makes, beside the computed fields', () => {
    expect(row).toMatchObject({ id: projectId, name: 'Garden', emoji: 'tulip', shared: false });
  });

  it('is written by the api/v1 and v9 writers, and described by the api/v1 OpenAPI project', () => {
    const apiProject = fieldRowWriter<EmojiProject>(WITH_EMOJI, 'apiV1')(row);
    expect(apiProject).toMatchObject({ id: projectId, name: 'Garden', emoji: 'tulip', is_shared: false, default_order: 0 });
    expect(apiProject).not.toHaveProperty('workspace_id');
    expect(z.strictObject(openApiShape(WITH_EMOJI, 'apiV1')).safeParse(apiProject).error).toBeUndefined();
    // The production table's OpenAPI object does not know the key: the line is what adds it.
    expect(z.strictObject(openApiShape(PROJECT_FIELDS, 'apiV1')).safeParse(apiProject).success).toBe(false);
    expect(fieldRowWriter<EmojiProject>(WITH_EMOJI, 'v9')(row)).toMatchObject({ id: projectId, collapsed: false, shared: false, sync_id: null, emoji: 'tulip' });
    expect(Object.keys(openApiShape(WITH_EMOJI, 'restV2'))).toContain('emoji');
  });

  it('is an argument of project_add and project_update', () => {
    const add = z.object(argShape(WITH_EMOJI, 'add'));
    expect(add.parse({ name: 'x', emoji: 'fern' })).toMatchObject({ name: 'x', emoji: 'fern' });
    expect(add.safeParse({ name: 'x', emoji: 'a'.repeat(9) }).success).toBe(false);
    expect(z.object(argShape(WITH_EMOJI, 'update')).parse({ emoji: null })).toEqual({ emoji: null });
  });
});
