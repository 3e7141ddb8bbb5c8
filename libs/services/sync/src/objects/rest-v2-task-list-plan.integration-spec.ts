import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { createTestDatabase, planNodes, planOf, type PlanNode, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { restV2TaskListSql } from '@doable/sync-dialects';
import { syncMigrations, UserProfileRepository } from '@doable/sync-domain';
import { seedLargeAccount } from '@doable/sync-domain/testing';
import { TaskFilterService } from '@doable/sync-read';

const LISTER = '8801';
const NEIGHBOUR = '8802';
const PUBLIC_URL = 'https://doable.example';

/**
 * What PostgreSQL is asked to do for a REST v2 task list (bench S5, issue #48), on S5's account
 * (5,000 tasks, 2,000 comments, a third of the tasks dated from 15 days ago to 14 ahead) beside a
 * 50,000-task account, as a shared database holds them: the plan, not the bytes (the rendering
 * spec holds those to the JavaScript writer).
 */
describe('the REST v2 task list statement, planned beside other accounts (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const filters = new TaskFilterService(new UserProfileRepository());
  const listSql = async (filter: string) => restV2TaskListSql((await filters.activeWhere(dataSource.manager, LISTER, filter))!, PUBLIC_URL);
  const plan = async (filter: string): Promise<PlanNode> => {
    const { sql, params } = await listSql(filter);
    return planOf(dataSource, sql, params);
  };

  beforeAll(async () => {
    database = await createTestDatabase('rest_v2_list_plan');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 2, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const id of [LISTER, NEIGHBOUR]) {
      await profiles.createWithInbox(dataSource.manager, { id, email: `${id}@plan.test`, fullName: id, timezone: 'UTC', lang: 'en', joinedAt: '2026-01-01T00:00:00Z', hasPassword: true, emailVerified: true });
    }
    await seedLargeAccount(database.url, LISTER);
    await seedLargeAccount(database.url, NEIGHBOUR, { projects: 300, sectionsPerProject: 3, tasks: 50_000, notes: 20_000, labels: 10 });
    // As bench S5 spreads them: about 1,000 of the lister's tasks are due today or overdue.
    await dataSource.query(`UPDATE sync.items SET due = jsonb_set(due, '{date}', to_jsonb(to_char(current_date + (id % 30)::int - 15, 'YYYY-MM-DD'))) WHERE due IS NOT NULL`);
    await dataSource.query('ANALYZE');
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('counts the chosen tasks\' comments in one index scan of their ids, not in a sub-select per task', async () => {
    const nodes = [...planNodes(await plan('today | overdue'))];
    expect(nodes.filter(({ node, underSubPlan }) => underSubPlan && node['Relation Name'] === 'notes')).toEqual([]);
    expect(nodes.some(({ node }) => node['Relation Name'] === 'notes' && /item_id = ANY/.test(node['Index Cond'] ?? ''))).toBe(true);
  });

  it('takes the tasks of every live project the lister sees in one scan, not one per project', async () => {
    const scans = [...planNodes(await plan('today | overdue'))].map(({ node }) => node).filter((node) => node['Relation Name'] === 'items');
    expect(scans).toHaveLength(1);
    const [scan] = scans;
    expect(scan['Node Type']).not.toBe('Seq Scan');
    expect(scan['Recheck Cond'] ?? scan['Index Cond']).toMatch(/project_id = ANY/);
  });

  it('is estimated below jit_above_cost, so no request compiles its expressions first', async () => {
    const [{ threshold }] = await dataSource.query<Array<{ threshold: number }>>(`SELECT current_setting('jit_above_cost')::float8 AS threshold`);
    // A sub-select per task was priced at an index scan per expected task: 105,000 here, and JIT took 37 of 38 ms.
    for (const filter of ['today | overdue', 'all']) expect((await plan(filter))['Total Cost']).toBeLessThan(threshold);
  });

  it('leaves a due with a number where a string belongs to JavaScript, and writes the same due with a string', async () => {
    const [{ id }] = await dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.items WHERE user_id = $1 AND due IS NOT NULL ORDER BY id LIMIT 1`, [LISTER]);
    const notWritten = async (due: object) => {
      await dataSource.query(`UPDATE sync.items SET due = $2 WHERE id = $1`, [id, JSON.stringify(due)]);
      const { sql, params } = await listSql('all');
      const rows = await dataSource.query<Array<{ task: string | null }>>(sql, params);
      return rows.filter((row) => row.task === null).length;
    };
    const due = { date: '2026-11-28', timezone: null, lang: 'en', is_recurring: false };
    expect(await notWritten({ ...due, string: 5 })).toBe(1);
    expect(await notWritten({ ...due, string: '5' })).toBe(0);
  });
});
