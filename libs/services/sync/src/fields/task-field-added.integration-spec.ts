import { argShape, type ApiTask, type FieldTable, openApiShape, TASK_FIELDS } from '@doable/contracts-sync';
import { restV2TaskListSql, restV2TaskWriter, taskRowWriter } from '@doable/sync-dialects';
import { type Item, itemColumns } from '@doable/sync-domain';
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
 * spec applies them to a wider table itself.
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
    const [{ body }] = await harness.dataSource.query<Array<{ body: string }>>(sql, params);
    const bySql = JSON.parse(body) as Array<Record<string, unknown>>;
    expect(bySql).toEqual([inJs]);
    expect(Object.keys(bySql[0])).toEqual(Object.keys(inJs));
  });

  it('is an argument of item_add and item_update', () => {
    const add = z.object(argShape(WITH_ESTIMATE, 'add'));
    expect(add.parse({ content: 'x', estimate: 5 })).toMatchObject({ content: 'x', estimate: 5 });
    expect(add.safeParse({ content: 'x', estimate: -1 }).success).toBe(false);
    expect(z.object(argShape(WITH_ESTIMATE, 'update')).parse({ estimate: null })).toEqual({ estimate: null });
  });
});
