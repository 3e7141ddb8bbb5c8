import { randomUUID } from 'node:crypto';
import type { EventEnvelope, EventSubject } from '@doable/contracts-common';
import { BUILTIN_WORKSPACE_BUSINESS, BUILTIN_WORKSPACE_STARTER, PlansEvents, type WorkspacePlanLimits } from '@doable/contracts-plans';
import { SyncEvents, type UsersChanged, type WorkspacePlanTypeChanged } from '@doable/contracts-sync';
import { OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { InProcessBroker, InProcessEventBus } from '@doable/shared-transport';
import { z } from 'zod';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import { PlanGate, PlanLimitsRepository, type WorkspaceRow } from '@doable/sync-domain';
import { WorkspacePlanChangedConsumer } from './workspace-plan-changed.consumer';

const ADA = '7401';
const BEN = '7402';
const CY = '7403';
const DEE = '7404';
const USERS = { [ADA]: 'ada@wsplan.test', [BEN]: 'ben@wsplan.test', [CY]: 'cy@wsplan.test', [DEE]: 'dee@wsplan.test' };

const business = (maxProjects = 500): WorkspacePlanLimits => ({
  plan_type: 'BUSINESS',
  limits: { current: { ...BUILTIN_WORKSPACE_BUSINESS.info, max_projects: maxProjects }, next: null },
});
const starter = (maxProjects = 5): WorkspacePlanLimits => ({
  plan_type: 'STARTER',
  limits: { current: { ...BUILTIN_WORKSPACE_STARTER.info, max_projects: maxProjects }, next: BUILTIN_WORKSPACE_BUSINESS.info },
});

/** Sync's copy of workspace plans, fed by the plans service's events through the real consumers (real PostgreSQL). */
describe('workspace plan announcements in sync (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  const bus = new InProcessEventBus(new InProcessBroker(), '');
  let consumers: EventConsumers;
  let team: string;

  async function publish<P>(event: EventSubject<P>, payload: P): Promise<EventEnvelope> {
    const envelope = { id: randomUUID(), subject: event.name, occurredAt: new Date().toISOString(), payload };
    await bus.publish(envelope);
    return envelope;
  }
  const announce = (workspaceId: string, revision: string, plan: WorkspacePlanLimits) => publish(PlansEvents.workspacePlanChanged, { workspaceId, revision, plan });
  const typeChanges = () => harness.events<WorkspacePlanTypeChanged>(SyncEvents.workspacePlanTypeChanged.name);
  const highWater = async (userId: string) => BigInt((await harness.repositories.profiles.syncPosition(harness.dataSource.manager, userId))!.high_water);
  const workspaceRow = async (id: string) =>
    (await harness.dataSource.query<Array<{ plan_type: string; plan_revision: string; version: string; max_projects: number | null }>>(
      `SELECT plan_type, plan_revision::text, version::text, (limits->'current'->>'max_projects')::int AS max_projects FROM sync.workspaces WHERE id = $1`,
      [id],
    ))[0];
  const seen = (rows: WorkspaceRow[] | undefined, id: string) => rows?.find((row) => row.id === id);

  beforeAll(async () => {
    await harness.start('workspace_plan_changed', USERS);
    const logger = createLogger('test', 'silent');
    const db = new Database(harness.dataSource, 'sync', new OutboxRelay(harness.dataSource, 'sync', { publish: () => Promise.resolve() }, logger, 3_600_000));
    // Only the name matters to the consumers (their durable names are sync.<name>).
    consumers = new EventConsumers({ name: 'sync', defaultPort: 0, env: z.object({}), imports: () => [] }, bus, logger, db);
    new WorkspacePlanChangedConsumer(consumers, new PlanLimitsRepository(), harness.repositories.workspaceMembers);
    await consumers.start();
    team = await harness.create(ADA, 'workspace_add', { name: 'Team' });
    await harness.addMember(team, BEN, 'MEMBER');
    await harness.addMember(team, CY, 'GUEST');
  });

  afterAll(async () => {
    await consumers.stop();
    await harness.stop();
  });

  it('stores an upgrade, stamps the workspace, raises its members’ high-water marks, and tells admins and members of the new type', async () => {
    const benToken = (await harness.read(BEN)).syncToken;
    const deeBefore = await highWater(DEE);
    await announce(team, '10', business());
    const row = await workspaceRow(team);
    expect(row).toMatchObject({ plan_type: 'BUSINESS', plan_revision: '10', max_projects: 500 });
    for (const member of [ADA, BEN, CY]) expect(await highWater(member)).toBeGreaterThanOrEqual(BigInt(row.version));
    expect(await highWater(DEE)).toBe(deeBefore);
    // The push channel's cue names exactly those whose mark moved (guests too), stamped with the version.
    const told = (await harness.events<UsersChanged>(SyncEvents.usersChanged.name)).at(-1);
    expect({ ...told, userIds: told?.userIds.slice().sort() }).toEqual({ userIds: [ADA, BEN, CY].sort(), version: row.version });
    // The member's next incremental sync carries the workspace with its new plan and limits.
    const incremental = await harness.read(BEN, benToken);
    expect(seen(incremental.rows.workspaces, team)).toMatchObject({ plan_type: 'BUSINESS', limits: { current: { plan_name: 'business', max_projects: 500 } } });
    expect(await typeChanges()).toEqual([{ workspaceId: team, workspaceName: 'Team', planType: 'BUSINESS', previousPlanType: 'STARTER', revision: '10', memberIds: [ADA, BEN] }]);
  });

  it('ignores an older revision delivered late: the plan stays, nothing is stamped or told', async () => {
    const before = await workspaceRow(team);
    await announce(team, '9', starter());
    expect(await workspaceRow(team)).toEqual(before);
    expect(await typeChanges()).toHaveLength(1);
  });

  it('stores a newer plan of the same type and stamps the workspace, telling no one', async () => {
    const before = await workspaceRow(team);
    const benToken = (await harness.read(BEN)).syncToken;
    await announce(team, '11', business(800));
    const after = await workspaceRow(team);
    expect(after).toMatchObject({ plan_type: 'BUSINESS', plan_revision: '11', max_projects: 800 });
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(before.version));
    expect(seen((await harness.read(BEN, benToken)).rows.workspaces, team)).toMatchObject({ limits: { current: { max_projects: 800 } } });
    expect(await typeChanges()).toHaveLength(1);
  });

  it('is what the plan gate counts against at once', async () => {
    await announce(team, '12', business(1));
    const gate = new PlanGate(harness.dataSource.manager, new PlanLimitsRepository(), ADA);
    expect((await gate.workspacePlanOf(team)).max_projects).toBe(1);
    await expect(gate.requireRoom('max_projects', { planOf: ADA, workspace: team, count: () => Promise.resolve(1) })).rejects.toMatchObject({
      code: 'MAX_PROJECTS_LIMIT_REACHED',
      extra: { limit: 'max_projects', max_count: 1, workspace_id: team },
    });
  });

  it('tells of a cancellation (back to STARTER) with the new revision', async () => {
    await announce(team, '13', starter());
    expect((await typeChanges()).slice(1)).toEqual([{ workspaceId: team, workspaceName: 'Team', planType: 'STARTER', previousPlanType: 'BUSINESS', revision: '13', memberIds: [ADA, BEN] }]);
  });

  it('ignores an announcement for a workspace it does not have or has deleted', async () => {
    await announce('8899999999', '20', business());
    expect(await harness.dataSource.query(`SELECT 1 FROM sync.workspaces WHERE id = 8899999999`)).toEqual([]);
    const gone = await harness.create(DEE, 'workspace_add', { name: 'Gone' });
    expect(await harness.status(DEE, 'workspace_delete', { id: gone })).toBe('ok');
    await announce(gone, '21', business());
    expect(await workspaceRow(gone)).toMatchObject({ plan_type: 'STARTER', plan_revision: '0' });
    expect(await typeChanges()).toHaveLength(2);
  });

  it('keeps a newer default workspace plan: the workspaces on the default take its type and are stamped for their members, no one is told', async () => {
    const onDefault = await harness.create(DEE, 'workspace_add', { name: 'Default one' });
    const before = await workspaceRow(onDefault);
    const teamBefore = await workspaceRow(team);
    const deeToken = (await harness.read(DEE)).syncToken;
    await publish(PlansEvents.defaultWorkspacePlanChanged, { revision: '30', plan: business(77) });
    const after = await workspaceRow(onDefault);
    expect(after.plan_type).toBe('BUSINESS');
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(before.version));
    expect(await highWater(DEE)).toBeGreaterThanOrEqual(BigInt(after.version));
    expect(seen((await harness.read(DEE, deeToken)).rows.workspaces, onDefault)).toMatchObject({ plan_type: 'BUSINESS', limits: { current: { max_projects: 77 } } });
    // A workspace with its own plan is untouched.
    expect(await workspaceRow(team)).toEqual(teamBefore);
    expect(await typeChanges()).toHaveLength(2);

    // An older default delivered late changes nothing.
    await publish(PlansEvents.defaultWorkspacePlanChanged, { revision: '29', plan: starter() });
    expect(await workspaceRow(onDefault)).toEqual(after);
    expect(
      (await harness.dataSource.query<Array<{ plan_type: string; revision: string }>>(`SELECT plan_type, revision::text FROM sync.default_workspace_plan`))[0],
    ).toEqual({ plan_type: 'BUSINESS', revision: '30' });
  });
});
