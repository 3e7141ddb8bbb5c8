import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { createTestDatabase, planNodes, planOf, type PlanNode, type TestDatabase } from '@doable/shared-testing';
import type { DataSource, EntityManager } from 'typeorm';
import { CompletedInfoRepository, CompletedRepository, ItemRepository, NoteRepository, type ObjectJsonSql, syncMigrations, UserProfileRepository } from '@doable/sync-domain';
import { seedLargeAccount } from '@doable/sync-domain/testing';
import { FirstGenerationReadsRepository } from '@doable/sync-dialects';
import { ObjectReadsRepository } from './object-reads.repository';

const READER = '8901';
const NEIGHBOUR = '8902';

interface Statement {
  readonly sql: string;
  readonly params: unknown[];
}

/** A task's stored text with the comment count the read computes (as the dialects' SQL appends it), so the count is not planned away. */
const TASK_TEXT: ObjectJsonSql = (row) => `(${row.alias}.api_v1_json || coalesce(${row.computed.note_count.sql}, 0))`;
const NOTE_TEXT: ObjectJsonSql = (row) => `${row.alias}.api_v1_json`;

/** The statements a repository method sends, run as they are (the method gets its answer) and kept. */
function recording(manager: EntityManager): { manager: EntityManager; statements: Statement[] } {
  const statements: Statement[] = [];
  const query = (sql: string, params: unknown[] = []) => {
    statements.push({ sql, params });
    return manager.query(sql, params);
  };
  return { manager: new Proxy(manager, { get: (target, key) => (key === 'query' ? query : Reflect.get(target, key)) }), statements };
}

/**
 * How PostgreSQL reads all of a user's tasks, comments and sections (a full sync, bench S3; the
 * resource-style lists, GET /rest/v2/tasks and /api/v1/tasks; issue #48), on S3's account
 * (5,000 tasks in 100 projects, 2,000 comments) beside a 50,000-task account in the same tables,
 * as a shared database holds them. Each must take the reader's rows in one scan of an index on
 * the project ids: not an index scan per project (a heap page of five projects' tasks read five
 * times), not a walk of the index past other accounts' rows, and not a scan of every account's
 * rows (what `project_id IN (members)` was planned as here: a full sync's tasks 30-40 ms of
 * PostgreSQL against 5.5-6, the REST v2 list of all tasks 99 against 8). What a read costs must
 * follow the reader's data, not everyone's.
 */
describe('reads of all a user\'s projects, planned beside a large account (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let projectId: string;

  beforeAll(async () => {
    database = await createTestDatabase('full_sync_plan');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 2, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const id of [READER, NEIGHBOUR]) {
      await profiles.createWithInbox(dataSource.manager, { id, email: `${id}@plan.test`, fullName: id, timezone: 'UTC', lang: 'en', joinedAt: '2026-01-01T00:00:00Z', hasPassword: true, emailVerified: true });
    }
    await seedLargeAccount(database.url, NEIGHBOUR, { projects: 300, sectionsPerProject: 3, tasks: 50_000, notes: 20_000, labels: 10 });
    await seedLargeAccount(database.url, READER);
    await dataSource.query('ANALYZE');
    [{ projectId }] = await dataSource.query<Array<{ projectId: string }>>(
      `SELECT project_id::text AS "projectId" FROM sync.project_members WHERE user_id = $1 ORDER BY project_id DESC LIMIT 1`,
      [READER],
    );
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /** The scans of `table` in the plan of each statement the read sent that reads it. */
  const scansOf = async (statements: readonly Statement[], table: string): Promise<PlanNode[]> => {
    const scans: PlanNode[] = [];
    for (const { sql, params } of statements.filter((statement) => statement.sql.includes(`sync.${table}`))) {
      const nodes = [...planNodes(await planOf(dataSource, sql, params))].map(({ node }) => node);
      scans.push(...nodes.filter((node) => node['Relation Name'] === table));
    }
    return scans;
  };

  /** A scan of the reader's rows by an index on their project ids, all the projects at once. */
  const byAllProjectsAtOnce = (scan: PlanNode) => {
    const condition = scan['Index Cond'] ?? scan['Recheck Cond'] ?? '';
    return scan['Node Type'] !== 'Seq Scan' && /project_id = ANY/.test(condition);
  };

  it('reads the tasks, written by PostgreSQL or as rows, in one scan over every visible project', async () => {
    const { manager, statements } = recording(dataSource.manager);
    const items = new ItemRepository();
    const written = await items.listActiveJson(manager, READER, TASK_TEXT);
    const rows = await items.listActive(manager, READER);
    expect(rows).toHaveLength(5_000);
    expect(written?.items).toBeDefined();
    const scans = await scansOf(statements, 'items');
    expect(scans.length).toBeGreaterThanOrEqual(2);
    expect(scans.filter((scan) => !byAllProjectsAtOnce(scan))).toEqual([]);
  });

  it('reads the comments, and counts them per task, the same way', async () => {
    const { manager, statements } = recording(dataSource.manager);
    const notes = new NoteRepository();
    await notes.listActiveJson(manager, READER, NOTE_TEXT);
    await notes.countByTask(manager, READER);
    await new ItemRepository().listActiveJson(manager, READER, TASK_TEXT);
    const scans = await scansOf(statements, 'notes');
    expect(scans.length).toBeGreaterThanOrEqual(3);
    expect(scans.filter((scan) => !byAllProjectsAtOnce(scan))).toEqual([]);
  });

  it('lists the tasks (all of them, or a page) and the sections of every project the same way', async () => {
    const { manager, statements } = recording(dataSource.manager);
    const reads = new ObjectReadsRepository();
    const all = await reads.tasks(manager, READER, {}, undefined);
    expect(all.rows).toHaveLength(5_000);
    const page = await reads.tasks(manager, READER, {}, { limit: 50, offset: 0 });
    expect(page.rows).toHaveLength(50);
    await reads.sections(manager, READER, {}, undefined);
    const tasks = await scansOf(statements, 'items');
    expect(tasks).toHaveLength(2);
    expect(tasks.filter((scan) => !byAllProjectsAtOnce(scan))).toEqual([]);
    const sections = await scansOf(statements, 'sections');
    expect(sections).toHaveLength(1);
    expect(sections.filter((scan) => !byAllProjectsAtOnce(scan))).toEqual([]);
  });

  it('counts the open tasks of every project (the first generation\'s cache_count) the same way', async () => {
    const { manager, statements } = recording(dataSource.manager);
    const counts = await new FirstGenerationReadsRepository().uncompletedCounts(manager, READER);
    expect([...counts.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
    const scans = await scansOf(statements, 'items');
    expect(scans).toHaveLength(1);
    expect(scans.filter((scan) => !byAllProjectsAtOnce(scan))).toEqual([]);
  });

  it('still reads one project\'s tasks by that project alone', async () => {
    const { manager, statements } = recording(dataSource.manager);
    await new ObjectReadsRepository().tasks(manager, READER, { projectId }, undefined);
    const [scan] = await scansOf(statements, 'items');
    expect(scan['Node Type']).not.toBe('Seq Scan');
  });

  describe('with a fifth of the tasks completed (their subtasks checked, the rest moved to history)', () => {
    beforeAll(async () => {
      await dataSource.query(
        `UPDATE sync.items SET checked = true, in_history = parent_id IS NULL, completed_at = now() - child_order * interval '1 minute' WHERE child_order % 5 = 0`,
      );
      await dataSource.query('ANALYZE sync.items');
    });

    it('counts a full sync\'s completed_info from one scan of the reader\'s checked tasks', async () => {
      const { manager, statements } = recording(dataSource.manager);
      const counts = new CompletedInfoRepository();
      const all = await counts.all(manager, READER);
      expect(all.filter((info) => info.kind === 'item')).toHaveLength(500);
      expect(all.filter((info) => info.kind === 'section').length).toBeGreaterThan(0);
      // The same counts as the per-container read an incremental sync makes, over every container.
      const perContainer = await counts.touchedSince(dataSource.manager, READER, '0');
      const nonZero = perContainer.filter((info) => info.completedItems > 0 || (info.kind === 'project' && info.archivedSections > 0));
      const byKey = (infos: typeof all) => [...infos].sort((a, b) => `${a.kind}${a.id}`.localeCompare(`${b.kind}${b.id}`));
      expect(byKey(all)).toEqual(byKey(nonZero));
      // Each table read by every visible project at once, or one row by its id; nothing once per
      // container, nothing walked past other accounts' rows.
      const nodes: Array<{ node: PlanNode; underSubPlan: boolean }> = [];
      for (const { sql, params } of statements) nodes.push(...planNodes(await planOf(dataSource, sql, params)));
      const byOneId = (scan: PlanNode) => /^\(id = /.test(scan['Index Cond'] ?? '');
      for (const table of ['items', 'sections']) {
        const scans = nodes.filter(({ node }) => node['Relation Name'] === table);
        expect(scans.length).toBeGreaterThan(0);
        expect(scans.filter(({ node, underSubPlan }) => underSubPlan || !(byAllProjectsAtOnce(node) || byOneId(node))).map(({ node }) => node)).toEqual([]);
      }
    });

    it('pages the completed tasks, newest first, from one scan of the reader\'s checked tasks', async () => {
      const { manager, statements } = recording(dataSource.manager);
      const completed = new CompletedRepository();
      const page = await completed.page(manager, READER, { projectId: null, label: null, since: null, until: null, limit: 50, offset: 0 });
      expect(page).toHaveLength(50);
      const until = new Date();
      const since = new Date(until.getTime() - 14 * 86_400_000);
      const window = { by: 'completion', since, until, projectId: null, sectionId: null, parentId: null, filterQuery: null, filterLang: null, workspaceId: null, limit: 50 } as const;
      expect(await completed.inWindow(manager, READER, window, null)).toHaveLength(51);
      const scans = await scansOf(statements, 'items');
      expect(scans).toHaveLength(2);
      expect(scans.filter((scan) => !byAllProjectsAtOnce(scan))).toEqual([]);
    });
  });
});
