import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import type { PlanInfo } from '@doable/contracts-plans';
import type { ShareInvitationBlocked, ShareInvitationSent } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { ItemDates } from '../../../items/item-dates';
import { ItemRepository } from '../../../items/item.repository';
import { LabelRepository } from '../../../labels/label.repository';
import { syncMigrations } from '../../../migrations';
import { PlanLimitsRepository } from '../../../plans/plan-limits.repository';
import { ProjectInvitationsRepository } from '../../../projects/project-invitations.repository';
import { ProjectMembersRepository } from '../../../projects/project-members.repository';
import { ProjectRepository } from '../../../projects/project.repository';
import { SectionRepository } from '../../../sections/section.repository';
import { givePlan } from '../../../testing/plans';
import { UserProfileRepository } from '../../../users/user-profile.repository';
import { CommandExecutor } from '../../command-executor';
import type { CommandStatus } from '../../command-status';
import type { SyncCommand } from '../../sync-request';
import { itemCommands } from '../items';
import { projectCommands } from '../projects';
import { sharingCommands } from '.';

const ANN = '7401';
const BOB = '7402';
const CAT = '7403';
const EMAIL: Record<string, string> = { [ANN]: 'ann@seats.test', [BOB]: 'bob@seats.test', [CAT]: 'cat@seats.test' };

const SENT = 'sync.evt.share-invitation-sent.v1';
const BLOCKED = 'sync.evt.share-invitation-blocked.v1';

describe('share_project under the owner’s max_collaborators (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;

  const principal = (userId: string): Principal => ({ userId, scopes: ['data:read_write', 'data:delete'], appId: null, tokenKind: 'personal' });
  const plan = (userId: string, overrides: Partial<PlanInfo> = {}) => givePlan(dataSource.manager, userId, overrides);

  const runAll = async (userId: string, commands: SyncCommand[]): Promise<Array<CommandStatus | undefined>> => {
    const result = await executor.run(principal(userId), commands);
    return commands.map((command) => result.syncStatus[command.uuid]);
  };
  const share = (projectId: string, email: string, uuid: string = randomUUID()): SyncCommand => ({ type: 'share_project', uuid, args: { project_id: projectId, email } });
  const run = async (userId: string, command: SyncCommand): Promise<CommandStatus | undefined> => (await runAll(userId, [command]))[0];

  const addProject = async (owner: string, name: string): Promise<string> => {
    const result = await executor.run(principal(owner), [{ type: 'project_add', uuid: randomUUID(), temp_id: 'p', args: { name } }]);
    return result.tempIdMapping['p'];
  };
  const events = async <P>(subject: string): Promise<P[]> =>
    (await dataSource.query<Array<{ payload: P }>>(`SELECT payload FROM sync.outbox WHERE subject = $1 ORDER BY id`, [subject])).map((row) => row.payload);
  const outboxSize = async () => (await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM sync.outbox`))[0].n;
  const invitationsTo = async (projectId: string) =>
    (await dataSource.query<Array<{ email: string; state: string }>>(`SELECT invitee_email AS email, state FROM sync.project_invitations WHERE project_id = $1 ORDER BY id`, [projectId])).map(
      (row) => `${row.email}:${row.state}`,
    );
  const projectVersion = async (projectId: string) => (await dataSource.query<Array<{ version: string }>>(`SELECT version::text FROM sync.projects WHERE id = $1`, [projectId]))[0].version;
  /** Makes the user a member through an invitation they accept. */
  const join = async (projectId: string, userId: string, from = ANN) => {
    expect(await run(from, share(projectId, EMAIL[userId]))).toBe('ok');
    const sent = (await events<ShareInvitationSent>(SENT)).at(-1)!;
    expect(await run(userId, { type: 'accept_invitation', uuid: randomUUID(), args: { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret } })).toBe('ok');
  };
  const refusal = (maxCount: number, projectId: string, planName = 'tight') => ({
    error_tag: 'MAX_COLLABORATORS_LIMIT_REACHED',
    http_code: 403,
    error_extra: { limit: 'max_collaborators', max_count: maxCount, plan: planName, project_id: projectId },
  });

  beforeAll(async () => {
    database = await createTestDatabase('collaborator_limit');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const [id, email] of Object.entries(EMAIL)) {
      await dataSource.transaction((manager) =>
        profiles.createWithInbox(manager, { id, email, fullName: `User ${id}`, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false }),
      );
    }
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const [items, projects, sections, members, invitations] = [new ItemRepository(), new ProjectRepository(), new SectionRepository(), new ProjectMembersRepository(), new ProjectInvitationsRepository()];
    const handlers = [
      ...projectCommands(projects, sections, items),
      ...itemCommands(items, projects, sections, new ItemDates(), new LabelRepository()),
      ...sharingCommands({ projects, members, invitations, items, profiles }),
    ];
    executor = new CommandExecutor(db, profiles, handlers, logger, [], members, new PlanLimitsRepository());
    // Bob and Cat have room for everything: the owner's plan is what counts.
    await plan(BOB);
    await plan(CAT);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('counts members besides the owner and open invitations: the last seat is given, the next share refused, leaving only the blocked event', async () => {
    await plan(ANN, { plan_name: 'tight', max_collaborators: 2 });
    const projectId = await addProject(ANN, 'Seats');
    await join(projectId, BOB);
    expect(await run(ANN, share(projectId, 'someone@seats.test'))).toBe('ok');

    const version = await projectVersion(projectId);
    const outbox = await outboxSize();
    const blockedBefore = (await events(BLOCKED)).length;
    expect(await run(ANN, share(projectId, 'late@seats.test'))).toEqual(expect.objectContaining(refusal(2, projectId)));

    expect(await invitationsTo(projectId)).toEqual([`${EMAIL[BOB]}:accepted`, 'someone@seats.test:invited']);
    expect(await projectVersion(projectId)).toBe(version);
    expect(await outboxSize()).toBe(outbox + 1);
    const blocked = await events<ShareInvitationBlocked>(BLOCKED);
    expect(blocked).toHaveLength(blockedBefore + 1);
    expect(blocked.at(-1)).toEqual({
      projectId,
      projectName: 'Seats',
      inviter: { id: ANN, email: EMAIL[ANN], full_name: `User ${ANN}`, image_id: null },
      inviteeEmail: 'late@seats.test',
      ownerId: ANN,
      maxCount: 2,
    });
  });

  it('emits the blocked event once per refused command: a replay of its uuid answers the same refusal and emits nothing', async () => {
    await plan(ANN, { plan_name: 'tight', max_collaborators: 0 });
    const projectId = await addProject(ANN, 'Replayed');
    const uuid = randomUUID();
    const first = await run(ANN, share(projectId, 'again@seats.test', uuid));
    expect(first).toEqual(expect.objectContaining(refusal(0, projectId)));
    const blocked = (await events(BLOCKED)).length;

    expect(await run(ANN, share(projectId, 'again@seats.test', uuid))).toEqual(first);
    expect(await events(BLOCKED)).toHaveLength(blocked);
  });

  it('emits once when a refusal loses the optimistic pass, beside commands that succeed', async () => {
    await plan(ANN, { plan_name: 'tight', max_collaborators: 1 });
    const projectId = await addProject(ANN, 'Batch');
    const blocked = (await events(BLOCKED)).length;
    const statuses = await runAll(ANN, [
      share(projectId, 'first@seats.test'),
      share(projectId, 'second@seats.test'),
      { type: 'item_add', uuid: randomUUID(), args: { content: 'After the refusal', project_id: projectId } },
    ]);
    expect(statuses[0]).toBe('ok');
    expect(statuses[1]).toEqual(expect.objectContaining(refusal(1, projectId)));
    expect(statuses[2]).toBe('ok');
    const emitted = (await events<ShareInvitationBlocked>(BLOCKED)).slice(blocked);
    expect(emitted.map((event) => event.inviteeEmail)).toEqual(['second@seats.test']);
    expect(await invitationsTo(projectId)).toEqual(['first@seats.test:invited']);
  });

  it('lets an open invitation be sent again when full (no new seat), and frees a seat when one is withdrawn', async () => {
    await plan(ANN, { plan_name: 'tight', max_collaborators: 1 });
    const projectId = await addProject(ANN, 'Resend');
    expect(await run(ANN, share(projectId, 'waiting@seats.test'))).toBe('ok');
    expect(await run(ANN, share(projectId, 'waiting@seats.test'))).toBe('ok');
    expect(await run(ANN, share(projectId, 'other@seats.test'))).toEqual(expect.objectContaining(refusal(1, projectId)));

    const [open] = await dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.project_invitations WHERE project_id = $1 AND state = 'invited'`, [projectId]);
    expect(await run(ANN, { type: 'delete_invitation', uuid: randomUUID(), args: { invitation_id: open.id } })).toBe('ok');
    expect(await run(ANN, share(projectId, 'other@seats.test'))).toBe('ok');
  });

  it('holds a member’s invitations against the owner’s plan, and tells the inviter and the owner', async () => {
    await plan(ANN, { plan_name: 'owners', max_collaborators: 1 });
    const projectId = await addProject(ANN, 'Owned');
    await join(projectId, BOB);
    expect(await run(BOB, share(projectId, EMAIL[CAT]))).toEqual(expect.objectContaining(refusal(1, projectId, 'owners')));
    expect((await events<ShareInvitationBlocked>(BLOCKED)).at(-1)).toMatchObject({ projectId, inviter: { id: BOB }, inviteeEmail: EMAIL[CAT], ownerId: ANN, maxCount: 1 });

    // Leaving frees the seat.
    expect(await run(BOB, { type: 'project_leave', uuid: randomUUID(), args: { project_id: projectId } })).toBe('ok');
    expect(await run(ANN, share(projectId, EMAIL[CAT]))).toBe('ok');
  });

  it('keeps to the limit when members of one project invite at the same time', async () => {
    await plan(ANN, { plan_name: 'tight', max_collaborators: 2 });
    const projectId = await addProject(ANN, 'Race');
    await join(projectId, BOB);
    // One seat left; the owner and a member both try to take it at once.
    const statuses = await Promise.all([run(ANN, share(projectId, 'ann-pick@seats.test')), run(BOB, share(projectId, 'bob-pick@seats.test'))]);
    expect(statuses.filter((status) => status === 'ok')).toHaveLength(1);
    expect(statuses.filter((status) => status !== 'ok')).toEqual([expect.objectContaining({ error_tag: 'MAX_COLLABORATORS_LIMIT_REACHED' })]);
    expect((await invitationsTo(projectId)).filter((row) => row.endsWith(':invited'))).toHaveLength(1);
  });
});
