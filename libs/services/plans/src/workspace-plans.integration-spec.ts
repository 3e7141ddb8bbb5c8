import { BUILTIN_WORKSPACE_CATALOGUE, PlansEvents, type WorkspacePlanCatalogue, type WorkspacePlanChanged } from '@doable/contracts-plans';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { WorkspacePlanAssignments, workspacePlanNames } from './assignments/workspace-plan-assignments';
import { parseWorkspaceCatalogue } from './catalogue/catalogue-file';
import { publishWorkspaceCatalogue } from './catalogue/workspace-catalogue-store';
import { plansMigrations } from './migrations';

const USERS = { default: 'free', plans: [{ plan_name: 'free', extends: 'free' }] };

/** The workspace catalogue at start and each workspace's plan, against a real PostgreSQL; events are read from the outbox. */
describe('plans: workspace catalogue publication and assignments (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  const assignments = new WorkspacePlanAssignments();

  const publish = (catalogue: WorkspacePlanCatalogue) => db.transaction((tx) => publishWorkspaceCatalogue(tx, catalogue));
  const catalogueOf = (section: unknown) => parseWorkspaceCatalogue({ ...USERS, workspace_plans: section });
  const eventsOf = async <P>(subject: string, afterId: string): Promise<P[]> =>
    (await dataSource.query<Array<{ payload: P }>>('SELECT payload FROM plans.outbox WHERE subject = $1 AND id > $2 ORDER BY id', [subject, afterId])).map((row) => row.payload);
  const announced = (afterId: string) => eventsOf<WorkspacePlanChanged>(PlansEvents.workspacePlanChanged.name, afterId);
  const defaults = (afterId: string) => eventsOf<{ revision: string; plan: WorkspacePlanChanged['plan'] }>(PlansEvents.defaultWorkspacePlanChanged.name, afterId);
  const lastOutboxId = async (): Promise<string> => (await dataSource.query<Array<{ id: string }>>('SELECT coalesce(max(id), 0)::text AS id FROM plans.outbox'))[0].id;
  const assignmentOf = async (workspaceId: string) =>
    (await dataSource.query<Array<{ plan_id: string; revision: string }>>('SELECT plan_id, revision::text FROM plans.workspace_plans WHERE workspace_id = $1', [workspaceId]))[0];

  beforeAll(async () => {
    database = await createTestDatabase('workspace_plans');
    dataSource = createServiceDataSource({ schema: 'plans', url: database.url, poolSize: 4, applicationName: 'test', migrations: plansMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    // The relay never runs here: the events stay in the outbox, where the tests read them.
    db = new Database(dataSource, 'plans', new OutboxRelay(dataSource, 'plans', { publish: () => Promise.resolve() }, createLogger('test', 'silent'), 3_600_000));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('publishes the built-in workspace catalogue first: the default is announced, no workspace is', async () => {
    const before = await lastOutboxId();
    expect(await publish(BUILTIN_WORKSPACE_CATALOGUE)).toEqual({ changedPlans: ['starter', 'business'], announcedWorkspaces: 0 });
    expect(await workspacePlanNames(dataSource.manager)).toEqual([
      { plan_name: 'starter', plan_type: 'STARTER', is_default: true },
      { plan_name: 'business', plan_type: 'BUSINESS', is_default: false },
    ]);
    expect(await announced(before)).toEqual([]);
    const [announcedDefault] = await defaults(before);
    expect(announcedDefault.plan).toMatchObject({ plan_type: 'STARTER', limits: { current: { plan_name: 'starter', max_projects: 5 }, next: { plan_name: 'business' } } });
  });

  it('announces nothing when the same catalogue is published again', async () => {
    const before = await lastOutboxId();
    expect(await publish(BUILTIN_WORKSPACE_CATALOGUE)).toEqual({ changedPlans: [], announcedWorkspaces: 0 });
    expect(await defaults(before)).toEqual([]);
  });

  it('answers the default plan for a workspace never assigned one', async () => {
    expect(await assignments.planOf(dataSource.manager, '8800000999')).toMatchObject({ plan_name: 'starter', plan: { plan_type: 'STARTER' } });
  });

  it('puts a workspace on a plan with a growing revision, announced with its type and limits', async () => {
    const before = await lastOutboxId();
    const plan = await db.transaction((tx) => assignments.assign(tx, '8800000001', 'business'));
    expect(plan).toMatchObject({ plan_type: 'BUSINESS', limits: { current: { plan_name: 'business', max_projects: 500 }, next: null } });
    const first = await assignmentOf('8800000001');
    expect(first.plan_id).toBe('business');
    expect(await announced(before)).toEqual([{ workspaceId: '8800000001', revision: first.revision, plan }]);

    await db.transaction((tx) => assignments.assign(tx, '8800000001', 'starter'));
    expect(BigInt((await assignmentOf('8800000001')).revision)).toBeGreaterThan(BigInt(first.revision));
    expect((await assignments.planOf(dataSource.manager, '8800000001')).plan_name).toBe('starter');
  });

  it('refuses a plan the workspace catalogue does not have with INVALID_ARGUMENT_VALUE listing its plans, changing nothing', async () => {
    const before = await lastOutboxId();
    const refusal = db.transaction((tx) => assignments.assign(tx, '8800000002', 'free'));
    await expect(refusal).rejects.toBeInstanceOf(DomainError);
    await expect(db.transaction((tx) => assignments.assign(tx, '8800000002', 'free'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT_VALUE',
      message: 'No workspace plan named "free" (the catalogue has: starter, business)',
    });
    expect(await assignmentOf('8800000002')).toBeUndefined();
    expect(await announced(before)).toEqual([]);
  });

  it('announces a changed plan to each workspace on it, and a changed default once', async () => {
    await db.transaction((tx) => assignments.assign(tx, '8800000002', 'business'));
    await db.transaction((tx) => assignments.assign(tx, '8800000003', 'business'));
    const before = await lastOutboxId();
    const result = await publish(
      catalogueOf({
        default: 'starter',
        plans: [
          { plan_name: 'starter', extends: 'starter', max_projects: 9 },
          { plan_name: 'business', extends: 'business' },
        ],
      }),
    );
    // 8800000001 is on starter, which changed: it is announced with the new value, as the default is.
    expect(result).toEqual({ changedPlans: ['starter'], announcedWorkspaces: 1 });
    expect((await announced(before)).map((event) => [event.workspaceId, event.plan.limits.current.max_projects])).toEqual([['8800000001', 9]]);
    expect((await defaults(before)).map((event) => event.plan.limits.current.max_projects)).toEqual([9]);
  });

  it('announces a plan whose type changed, though its keys did not', async () => {
    const before = await lastOutboxId();
    const result = await publish(
      catalogueOf({
        default: 'starter',
        plans: [
          { plan_name: 'starter', extends: 'starter', max_projects: 9 },
          { plan_name: 'business', extends: 'business', plan_type: 'STARTER' },
        ],
      }),
    );
    expect(result).toEqual({ changedPlans: ['business'], announcedWorkspaces: 2 });
    expect((await announced(before)).map((event) => [event.workspaceId, event.plan.plan_type])).toEqual([
      ['8800000002', 'STARTER'],
      ['8800000003', 'STARTER'],
    ]);
    const revisions = (await announced(before)).map((event) => BigInt(event.revision));
    expect(revisions[1]).toBeGreaterThan(revisions[0]);
  });

  it('moves the workspaces of a retired plan to the default and announces them once each', async () => {
    const before = await lastOutboxId();
    const result = await publish(catalogueOf({ default: 'team', plans: [{ plan_name: 'team', extends: 'starter', max_projects: 9, next: null }] }));
    expect(result.changedPlans).toEqual(['team']);
    const events = await announced(before);
    expect(events.map((event) => event.workspaceId).sort()).toEqual(['8800000001', '8800000002', '8800000003']);
    expect(new Set(events.map((event) => event.plan.limits.current.plan_name))).toEqual(new Set(['team']));
    expect(result.announcedWorkspaces).toBe(3);
    expect((await assignmentOf('8800000002')).plan_id).toBe('team');
    expect(await workspacePlanNames(dataSource.manager)).toEqual([{ plan_name: 'team', plan_type: 'STARTER', is_default: true }]);
    expect((await defaults(before)).map((event) => event.plan.limits.current.plan_name)).toEqual(['team']);
  });

  it('moves a retired plan’s workspace to an unchanged default and announces only it', async () => {
    await dataSource.query(`INSERT INTO plans.workspace_plans (workspace_id, plan_id) VALUES (8800000004, 'retired')`);
    const before = await lastOutboxId();
    expect(await publish(catalogueOf({ default: 'team', plans: [{ plan_name: 'team', extends: 'starter', max_projects: 9, next: null }] }))).toEqual({
      changedPlans: [],
      announcedWorkspaces: 1,
    });
    expect((await announced(before)).map((event) => [event.workspaceId, event.plan.limits.current.plan_name])).toEqual([['8800000004', 'team']]);
    expect(await defaults(before)).toEqual([]);
  });
});
