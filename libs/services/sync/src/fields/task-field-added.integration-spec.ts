import { argShape, argValues, type ApiTask, type FieldTable, openApiShape, TASK_FIELDS } from '@doable/contracts-sync';
import { objectJsonSql, restV2TaskListSql, restV2TaskWriter, taskListBody, taskRowWriter } from '@doable/sync-dialects';
import { type Item, itemColumns, itemInsert, itemInsertAll, withWireTimestamps } from '@doable/sync-domain';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import { z } from 'zod';
import { taskListSql } from '../objects/object-reads.repository';

const ADA = '7651';
const PUBLIC_URL = 'https://doable.example';

/**
 * A task field that lives only here: its migration is the ALTER TABLE below, its table line is
 * WITH_ESTIMATE's `estimate`, and this spec is its test. What the issue asks of "adding a field
 * takes a migration, one table line and a test": every consumer derived from the table (the
 * SELECT list, the api/v1 and v9 writers, the REST v2 writer and its SQL twin, the OpenAPI
 * objects, the command arguments) writes the new field with no other change.
 *
 * The derivations are functions of a table, and production applies them to TASK_FIELDS once at
 * load; nothing in the product takes a table from outside (no hook a test could abuse), so the
 * spec applies them to a wider table itself. e2e/task-field-added.e2e-spec.ts does the same with
 * the whole system (a process whose table has a line more) through every interface.
 */
const WITH_ESTIMATE = {
  ...TASK_FIELDS,
  estimate: {
    column: { type: 'integer', nullable: true },
    args: { add: z.number().int().min(0).nullish(), update: z.number().int().min(0).nullish() },
    apiV1: 'estimate',
    v9: 'estimate',
    schema: z.int().nullable(),
    restV2: { key: 'estimate', render: 'value' },
    backup: true,
    template: false,
    csv: [],
  },
} as const satisfies FieldTable;

describe('a task field added only in a table line (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  let taskId: string;
  let row: Item & { estimate: number | null };

  beforeAll(async () => {
    await harness.start('task_field_added', { [ADA]: 'ada@tfa.test' });
    taskId = await harness.create(ADA, 'item_add', { content: 'estimated', duration: { amount: 30, unit: 'minute' } });
    // The field's migration.
    await harness.dataSource.query('ALTER TABLE sync.items ADD COLUMN estimate integer');
    await harness.dataSource.query('UPDATE sync.items SET estimate = 25 WHERE id = $1', [taskId]);
    [row] = await harness.dataSource.query<Array<Item & { estimate: number | null }>>(`SELECT ${itemColumns(WITH_ESTIMATE)} FROM sync.items WHERE id = $1`, [taskId]);
  });
  afterAll(() => harness.stop());

  it('is read by the SELECT list the table makes', () => {
    expect(row.estimate).toBe(25);
    expect(row.id).toBe(taskId);
  });

  it('is written by the api/v1 (so a backup’s account JSON) and v9 writers, and described by the api/v1 OpenAPI task', () => {
    const apiTask = taskRowWriter(WITH_ESTIMATE, 'apiV1')(row);
    expect(apiTask).toMatchObject({ id: taskId, content: 'estimated', estimate: 25, duration: { amount: 30, unit: 'minute' } });
    expect(z.strictObject(openApiShape(WITH_ESTIMATE, 'apiV1')).safeParse(apiTask).error).toBeUndefined();
    // The production table's OpenAPI object does not know the key: the line is what adds it.
    expect(z.strictObject(openApiShape(TASK_FIELDS, 'apiV1')).safeParse(apiTask).success).toBe(false);
    expect(taskRowWriter(WITH_ESTIMATE, 'v9')(row)).toMatchObject({ id: taskId, collapsed: false, sync_id: null, estimate: 25 });
  });

  it('is written by REST v2, in JavaScript and by PostgreSQL alike, and described by the REST v2 OpenAPI task', async () => {
    const apiTask = taskRowWriter(WITH_ESTIMATE, 'apiV1')(row) as ApiTask;
    const inJs = restV2TaskWriter(WITH_ESTIMATE)(apiTask, PUBLIC_URL);
    expect(inJs).toMatchObject({ id: taskId, estimate: 25, url: `${PUBLIC_URL}/app/task/${taskId}` });
    expect(z.strictObject(openApiShape(WITH_ESTIMATE, 'restV2')).safeParse(inJs).error).toBeUndefined();

    const list = taskListSql(ADA, { ids: [taskId] });
    const { sql, params } = restV2TaskListSql({ where: list.conditionText(), params: list.params }, PUBLIC_URL, WITH_ESTIMATE);
    const body = taskListBody(await harness.dataSource.query<Array<{ task: string | null }>>(sql, params))?.toString();
    expect(body).toBe(JSON.stringify([inJs]));
    const bySql = JSON.parse(body!) as Array<Record<string, unknown>>;
    expect(bySql).toEqual([inJs]);
    expect(Object.keys(bySql[0])).toEqual(Object.keys(inJs));
  });

  it('is written by a full sync’s SQL (api/v1 and v9) as by the JavaScript writers, byte for byte', async () => {
    const row = { alias: 'item', computed: { note_count: { sql: '0', type: 'integer' } } } as const;
    for (const dialect of ['apiV1', 'v9'] as const) {
      const [{ text }] = await harness.dataSource.query<Array<{ text: string }>>(`SELECT ${objectJsonSql(WITH_ESTIMATE, dialect, 'taskRowWriter')(row)} AS text FROM sync.items AS item WHERE item.id = $1`, [taskId]);
      const [wire] = await harness.dataSource.query<Array<Item & { estimate: number | null }>>(`SELECT ${withWireTimestamps(itemColumns(WITH_ESTIMATE), ['added_at', 'completed_at', 'updated_at'])} FROM sync.items WHERE id = $1`, [taskId]);
      expect(text).toBe(JSON.stringify(taskRowWriter(WITH_ESTIMATE, dialect)({ ...wire, note_count: 0 })));
      expect(JSON.parse(text)).toMatchObject({ estimate: 25 });
    }
  });

  it('is written by item_add’s INSERTs, one task and many, from its argument as parsed', async () => {
    const projectId = await harness.create(ADA, 'project_add', { name: 'Estimates' });
    const parsed = z.object(argShape(WITH_ESTIMATE, 'add')).parse({ content: 'x', estimate: 5 });
    // What item_add writes: the arguments as parsed (argValues), then its own rules (the placement, the labels...).
    const task = (content: string, estimate: number | null) => ({
      ...argValues(WITH_ESTIMATE, 'add', { ...parsed, estimate }),
      user_id: ADA,
      project_id: projectId,
      section_id: null,
      parent_id: null,
      content,
      due: null,
      deadline: null,
      duration: null,
      labels: ['home'],
      child_order: null,
      is_collapsed: false,
      assigned_by_uid: null,
      responsible_uid: null,
    });
    const one = itemInsert(WITH_ESTIMATE);
    const [first] = await harness.dataSource.query<Array<{ content: string; estimate: number | null; child_order: number }>>(one.sql, one.values(task('first', 5), '1'));
    expect(first).toMatchObject({ content: 'first', estimate: 5, child_order: 1 });
    const many = itemInsertAll(WITH_ESTIMATE);
    const rows = await harness.dataSource.query<Array<{ n: string; content: string; estimate: number | null; labels: string[]; child_order: number }>>(many.sql, many.values([task('second', 7), task('third', null)], '1'));
    expect(rows.map(({ n, content, estimate, labels, child_order }) => ({ n, content, estimate, labels, child_order }))).toEqual([
      { n: '1', content: 'second', estimate: 7, labels: ['home'], child_order: 2 },
      { n: '2', content: 'third', estimate: null, labels: ['home'], child_order: 3 },
    ]);
  });

  it('is an argument of item_add and item_update', () => {
    const add = z.object(argShape(WITH_ESTIMATE, 'add'));
    expect(add.parse({ content: 'x', estimate: 5 })).toMatchObject({ content: 'x', estimate: 5 });
    expect(add.safeParse({ content: 'x', estimate: -1 }).success).toBe(false);
    expect(z.object(argShape(WITH_ESTIMATE, 'update')).parse({ estimate: null })).toEqual({ estimate: null });
    // item_update changes what it is given, and leaves what it is not.
    expect(argValues(WITH_ESTIMATE, 'update', { estimate: 3 })).toMatchObject({ estimate: 3, description: undefined });
  });
});
