import { commandHandlers } from '../../../testing/command-handlers.harness';
import { randomUUID } from 'node:crypto';
import { hashToken } from '@doable/contracts-auth';
import type { Principal } from '@doable/contracts-common';
import type { CollaboratorLeft, ShareInvitationAnswered, ShareInvitationSent, UsersChanged } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { NewAccounts, PlanLimitsRepository, ProjectInvitationsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, VISIBLE_PROJECTS, WorkspaceMembersRepository, WorkspaceInvitationsRepository } from '@doable/sync-domain';
import { CommandExecutor } from '../../../src/command-executor';
import type { CommandStatus } from '../../../src/command-status';
import type { SyncCommand } from '../../../src/sync-request';
import { givePlan } from '@doable/sync-domain/testing';

const ANN = '7201';
const BOB = '7202';
const CAT = '7203';
const NEWBIE = '7204';
const EMAIL: Record<string, string> = { [ANN]: 'ann@share.test', [BOB]: 'Bob@Share.test', [CAT]: 'cat@share.test' };

const SENT = 'sync.evt.share-invitation-sent.v1';
const ANSWERED = 'sync.evt.share-invitation-answered.v1';
const LEFT = 'sync.evt.collaborator-left.v1';
const CHANGED = 'sync.evt.users-changed.v1';

describe('sharing commands: invitations, memberships and roles (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  let executor: CommandExecutor;
  let accounts: NewAccounts;
  const profiles = new UserProfileRepository();

  const principal = (userId: string): Principal => ({ userId, scopes: ['data:read_write'], appId: null, tokenKind: 'personal' });

  /** Runs one command as the user; answers its status and the temp id mapping. */
  const runAs = async (userId: string, type: string, args: Record<string, unknown>, uuid: string = randomUUID(), tempId?: string) => {
    const command: SyncCommand = { type, uuid, args, ...(tempId ? { temp_id: tempId } : {}) };
    const result = await executor.run(principal(userId), [command]);
    return { status: result.syncStatus[uuid], mapping: result.tempIdMapping };
  };
  const statusOf = async (userId: string, type: string, args: Record<string, unknown>): Promise<CommandStatus> => (await runAs(userId, type, args)).status;

  const addProject = async (owner: string, name: string): Promise<string> => {
    const { status, mapping } = await runAs(owner, 'project_add', { name }, randomUUID(), `tmp-${name}`);
    expect(status).toBe('ok');
    return mapping[`tmp-${name}`];
  };

  const events = async <P>(subject: string): Promise<P[]> =>
    (await dataSource.query<Array<{ payload: P }>>(`SELECT payload FROM sync.outbox WHERE subject = $1 ORDER BY id`, [subject])).map((row) => row.payload);
  const lastEvent = async <P>(subject: string): Promise<P> => (await events<P>(subject)).at(-1)!;

  const invitationRow = async (id: string) =>
    (
      await dataSource.query<Array<{ state: string; secret_hash: string; invitee_id: string | null; role: string; version: string }>>(
        `SELECT state, secret_hash, invitee_id::text, role, version::text FROM sync.project_invitations WHERE id = $1`,
        [id],
      )
    )[0];
  const membership = async (projectId: string, userId: string) =>
    (
      await dataSource.query<Array<{ role: string; state: string; version: string }>>(
        `SELECT role, state, version::text FROM sync.project_members WHERE project_id = $1 AND user_id = $2`,
        [projectId, userId],
      )
    )[0];
  const visibleProjects = async (userId: string) => (await dataSource.query<Array<{ id: string }>>(`SELECT project_id::text AS id FROM (${VISIBLE_PROJECTS}) visible`, [userId])).map((row) => row.id);
  const projectVersion = async (projectId: string) => (await dataSource.query<Array<{ version: string }>>(`SELECT version::text FROM sync.projects WHERE id = $1`, [projectId]))[0].version;
  const highWater = async (userId: string) => BigInt((await dataSource.query<Array<{ high_water: string }>>(`SELECT high_water::text FROM sync.users WHERE id = $1`, [userId]))[0].high_water);

  /** Invites the user's address and answers the event the invitation sent (its secret included). */
  const invite = async (from: string, projectId: string, email: string, extra: Record<string, unknown> = {}): Promise<ShareInvitationSent> => {
    expect(await statusOf(from, 'share_project', { project_id: projectId, email, ...extra })).toBe('ok');
    return lastEvent<ShareInvitationSent>(SENT);
  };
  /** Makes the user a member with the role, through an invitation they accept. */
  const join = async (projectId: string, userId: string, role: string): Promise<void> => {
    const sent = await invite(ANN, projectId, EMAIL[userId], { role });
    expect(await statusOf(userId, 'accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret })).toBe('ok');
  };

  beforeAll(async () => {
    database = await createTestDatabase('sharing_commands');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    for (const [id, email] of Object.entries(EMAIL)) {
      await dataSource.transaction((manager) =>
        profiles.createWithInbox(manager, { id, email, fullName: `User ${id}`, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
      );
      // More projects than the built-in free plan holds.
      await givePlan(dataSource.manager, id);
    }
    const logger = createLogger('test', 'silent');
    db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const [members, invitations] = [new ProjectMembersRepository(), new ProjectInvitationsRepository()];
    const handlers = await commandHandlers();
    executor = new CommandExecutor(db, profiles, handlers, logger, [], members, new PlanLimitsRepository(), new WorkspaceMembersRepository());
    // What the user-created consumer runs for auth's event, here in a real transaction.
    accounts = new NewAccounts(profiles, invitations, new WorkspaceInvitationsRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('invites an existing user: the event carries the secret, the database only its hash, and the receiver is touched', async () => {
    const projectId = await addProject(ANN, 'Invite');
    const before = await highWater(BOB);
    const sent = await invite(ANN, projectId, '  BOB@share.TEST ', { message: 'join us' });

    expect(sent).toMatchObject({
      projectId,
      projectName: 'Invite',
      inviter: { id: ANN, email: EMAIL[ANN], full_name: `User ${ANN}`, image_id: null },
      inviteeEmail: 'bob@share.test',
      inviteeId: BOB,
      role: 'READ_WRITE',
      message: 'join us',
    });
    expect(sent.invitationSecret.length).toBeGreaterThanOrEqual(32);
    const row = await invitationRow(sent.invitationId);
    expect(row).toMatchObject({ state: 'invited', invitee_id: BOB, role: 'READ_WRITE', secret_hash: hashToken(sent.invitationSecret) });
    const [{ found }] = await dataSource.query<Array<{ found: boolean }>>(`SELECT position($2 IN row_to_json(i)::text) > 0 AS found FROM sync.project_invitations i WHERE id = $1`, [
      sent.invitationId,
      sent.invitationSecret,
    ]);
    expect(found).toBe(false);
    expect(await highWater(BOB)).toBeGreaterThan(before);
    expect(await highWater(BOB)).toBe(BigInt(row.version));
    // Invited is not a member yet.
    expect(await visibleProjects(BOB)).not.toContain(projectId);
  });

  it('refuses to share the Inbox, an invalid address, oneself, a member, the CREATOR role, and a non-member\'s or EDIT_ONLY member\'s invitation', async () => {
    const projectId = await addProject(ANN, 'Refusals');
    await join(projectId, BOB, 'EDIT_ONLY');
    const [{ inbox }] = await dataSource.query<Array<{ inbox: string }>>(`SELECT inbox_project_id::text AS inbox FROM sync.users WHERE id = $1`, [ANN]);
    const sentBefore = (await events(SENT)).length;

    expect(await statusOf(ANN, 'share_project', { project_id: inbox, email: EMAIL[CAT] })).toMatchObject({ error_tag: 'FORBIDDEN', error_extra: { argument: 'project_id' } });
    expect(await statusOf(ANN, 'share_project', { project_id: projectId, email: 'not-an-address' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'email' } });
    expect(await statusOf(ANN, 'share_project', { project_id: projectId, email: 'ANN@share.test' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'email' } });
    expect(await statusOf(ANN, 'share_project', { project_id: projectId, email: EMAIL[BOB] })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'email' } });
    expect(await statusOf(ANN, 'share_project', { project_id: projectId, email: EMAIL[CAT], role: 'CREATOR' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'role' } });
    expect(await statusOf(CAT, 'share_project', { project_id: projectId, email: 'someone@share.test' })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    expect(await statusOf(BOB, 'share_project', { project_id: projectId, email: EMAIL[CAT] })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await statusOf(ANN, 'share_project', { email: EMAIL[CAT] })).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'project_id' } });

    expect(await events(SENT)).toHaveLength(sentBefore);
  });

  it('refuses a wrong secret, another user, and an unknown invitation alike; accepting makes a member with the invitation\'s role', async () => {
    const projectId = await addProject(ANN, 'Accept');
    const sent = await invite(ANN, projectId, EMAIL[BOB], { role: 'ADMIN' });
    const refusal = { error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'invitation_secret' } };

    const wrong = await statusOf(BOB, 'accept_invitation', { invitation_id: sent.invitationId, invitation_secret: 'x'.repeat(32) });
    const stranger = await statusOf(CAT, 'accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret });
    const unknown = await statusOf(BOB, 'accept_invitation', { invitation_id: '7799999999', invitation_secret: sent.invitationSecret });
    expect(wrong).toMatchObject(refusal);
    expect(stranger).toEqual(wrong);
    expect(unknown).toEqual(wrong);
    expect(await membership(projectId, BOB)).toBeUndefined();
    expect(await membership(projectId, CAT)).toBeUndefined();

    const versionBefore = await projectVersion(projectId);
    // v8 sends ids as numbers.
    expect(await statusOf(BOB, 'accept_invitation', { invitation_id: Number(sent.invitationId), invitation_secret: sent.invitationSecret })).toBe('ok');

    const member = await membership(projectId, BOB);
    expect(member).toMatchObject({ role: 'ADMIN', state: 'active' });
    expect(await visibleProjects(BOB)).toContain(projectId);
    expect(BigInt(await projectVersion(projectId))).toBeGreaterThan(BigInt(versionBefore));
    expect(await projectVersion(projectId)).toBe(member.version);
    expect(await invitationRow(sent.invitationId)).toMatchObject({ state: 'accepted', version: member.version });
    expect(await highWater(ANN)).toBeGreaterThanOrEqual(BigInt(member.version));
    expect(await lastEvent<ShareInvitationAnswered>(ANSWERED)).toMatchObject({
      invitationId: sent.invitationId,
      projectId,
      projectName: 'Accept',
      inviterId: ANN,
      inviteeId: BOB,
      actor: { id: BOB, email: EMAIL[BOB] },
      answer: 'accepted',
    });
    // The new member works in the project with their role; the invitation cannot be answered again.
    expect(await statusOf(BOB, 'item_add', { content: 'from Bob', project_id: projectId })).toBe('ok');
    expect(await statusOf(BOB, 'reject_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret })).toMatchObject({
      error_tag: 'INVALID_ARGUMENT_VALUE',
      error_extra: { argument: 'invitation_id', state: 'accepted' },
    });
  });

  it('rejects an invitation: no membership, the sender is told', async () => {
    const projectId = await addProject(ANN, 'Reject');
    const sent = await invite(ANN, projectId, EMAIL[CAT]);
    expect(await statusOf(CAT, 'reject_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret })).toBe('ok');
    expect(await invitationRow(sent.invitationId)).toMatchObject({ state: 'rejected' });
    expect(await membership(projectId, CAT)).toBeUndefined();
    expect(await visibleProjects(CAT)).not.toContain(projectId);
    expect(await lastEvent<ShareInvitationAnswered>(ANSWERED)).toMatchObject({ invitationId: sent.invitationId, inviterId: ANN, actor: { id: CAT }, answer: 'rejected' });
    expect(await statusOf(CAT, 'accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret })).toMatchObject({
      error_extra: { argument: 'invitation_id', state: 'rejected' },
    });
  });

  it('deletes an invitation by its sender; not by another READ_WRITE member, and to an outsider it does not exist', async () => {
    const projectId = await addProject(ANN, 'Withdraw');
    await join(projectId, BOB, 'READ_WRITE');
    const sent = await invite(ANN, projectId, EMAIL[CAT]);

    expect(await statusOf(BOB, 'delete_invitation', { invitation_id: sent.invitationId })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await statusOf(CAT, 'delete_invitation', { invitation_id: sent.invitationId })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'invitation_id' } });
    expect(await invitationRow(sent.invitationId)).toMatchObject({ state: 'invited' });

    expect(await statusOf(ANN, 'delete_invitation', { invitation_id: sent.invitationId })).toBe('ok');
    const row = await invitationRow(sent.invitationId);
    expect(row).toMatchObject({ state: 'deleted' });
    expect(await highWater(CAT)).toBeGreaterThanOrEqual(BigInt(row.version));
    expect(await lastEvent<ShareInvitationAnswered>(ANSWERED)).toMatchObject({ invitationId: sent.invitationId, actor: { id: ANN }, answer: 'deleted' });
    expect(await statusOf(CAT, 'accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret })).toMatchObject({
      error_extra: { argument: 'invitation_id', state: 'deleted' },
    });
    // Bob invites Cat himself: as its sender he may withdraw it.
    const own = await invite(BOB, projectId, EMAIL[CAT]);
    expect(await statusOf(BOB, 'delete_invitation', { invitation_id: own.invitationId })).toBe('ok');
  });

  it('keeps an open invitation sent within the window (same secret, nothing sent again); after it, sends it again under a new secret', async () => {
    const projectId = await addProject(ANN, 'Resend');
    const first = await invite(ANN, projectId, EMAIL[CAT], { role: 'COMPLETE_ONLY' });
    const sentBefore = (await events(SENT)).length;
    // The flood of the issue: the same address shared again and again mails nothing more.
    for (let i = 0; i < 5; i++) expect(await statusOf(ANN, 'share_project', { project_id: projectId, email: EMAIL[CAT], role: 'EDIT_ONLY', message: 'again' })).toBe('ok');
    expect(await events(SENT)).toHaveLength(sentBefore);
    expect(await invitationRow(first.invitationId)).toMatchObject({ role: 'COMPLETE_ONLY', state: 'invited' });

    // The window (an hour by default) has passed: sent again, one invitation still.
    await dataSource.query(`UPDATE sync.project_invitations SET created_at = now() - interval '2 hours' WHERE id = $1`, [first.invitationId]);
    const second = await invite(ANN, projectId, EMAIL[CAT], { role: 'EDIT_ONLY', message: 'again' });
    expect(second.invitationId).toBe(first.invitationId);
    expect(second.invitationSecret).not.toBe(first.invitationSecret);
    const [{ n }] = await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM sync.project_invitations WHERE project_id = $1`, [projectId]);
    expect(n).toBe(1);
    expect(await statusOf(CAT, 'accept_invitation', { invitation_id: first.invitationId, invitation_secret: first.invitationSecret })).toMatchObject({
      error_extra: { argument: 'invitation_secret' },
    });
    expect(await statusOf(CAT, 'accept_invitation', { invitation_id: second.invitationId, invitation_secret: second.invitationSecret })).toBe('ok');
    expect(await membership(projectId, CAT)).toMatchObject({ role: 'EDIT_ONLY', state: 'active' });
  });

  it('refuses the invitation past the sender\'s budget with RATE_LIMITED and retry_after; the batch\'s earlier commands stand', async () => {
    const ZED = '7299';
    const profiles = new UserProfileRepository();
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: ZED, email: 'zed@share.test', fullName: 'Zed', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false }),
    );
    await givePlan(dataSource.manager, ZED);
    const projectId = await addProject(ZED, 'Budget');
    const [members] = [new ProjectMembersRepository()];
    const budgeted = new CommandExecutor(db, profiles, await commandHandlers({ invitationBudget: { perSender: 3, windowSeconds: 3600 } }), createLogger('test', 'silent'), [], members, new PlanLimitsRepository(), new WorkspaceMembersRepository());
    const share = (email: string) => ({ type: 'share_project', uuid: randomUUID(), args: { project_id: projectId, email } });
    const batch = [share('s1@flood.test'), share('s2@flood.test'), share('s3@flood.test'), share('s4@flood.test'), share('s1@flood.test')];
    const sentBefore = (await events(SENT)).length;
    const result = await budgeted.run(principal(ZED), batch);
    const statuses = batch.map((command) => result.syncStatus[command.uuid]);
    expect(statuses.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
    expect(statuses[3]).toMatchObject({ error_tag: 'LIMITS_REACHED', http_code: 429, error_extra: { limit: 3, window_seconds: 3600 } });
    const retryAfter = (statuses[3] as unknown as { error_extra: { retry_after: number } }).error_extra.retry_after;
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Sharing again with an address already invited sends nothing, so it needs no budget.
    expect(statuses[4]).toBe('ok');
    expect(await events(SENT)).toHaveLength(sentBefore + 3);
    await expect(dataSource.query(`SELECT 1 FROM sync.project_invitations WHERE invitee_email = 's4@flood.test'`)).resolves.toHaveLength(0);
  });

  it('changes a role (CREATOR and ADMIN only); the CREATOR\'s role is untouchable and nobody becomes CREATOR', async () => {
    const projectId = await addProject(ANN, 'Roles');
    await join(projectId, BOB, 'READ_WRITE');
    await join(projectId, CAT, 'EDIT_ONLY');
    const before = await projectVersion(projectId);

    expect(await statusOf(ANN, 'project_change_role', { id: projectId, user_id: Number(BOB), role: 'ADMIN' })).toBe('ok');
    const bob = await membership(projectId, BOB);
    expect(bob.role).toBe('ADMIN');
    expect(BigInt(await projectVersion(projectId))).toBeGreaterThan(BigInt(before));
    expect(await highWater(CAT)).toBeGreaterThanOrEqual(BigInt(bob.version));

    expect(await statusOf(CAT, 'project_change_role', { id: projectId, user_id: BOB, role: 'COMPLETE_ONLY' })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await statusOf(BOB, 'project_change_role', { id: projectId, user_id: ANN, role: 'READ_WRITE' })).toMatchObject({ error_tag: 'FORBIDDEN', error_extra: { argument: 'user_id' } });
    expect(await statusOf(ANN, 'project_change_role', { id: projectId, user_id: CAT, role: 'CREATOR' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'role' } });
    expect(await statusOf(ANN, 'project_change_role', { id: projectId, user_id: NEWBIE, role: 'ADMIN' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'user_id' } });
    expect((await membership(projectId, ANN)).role).toBe('CREATOR');
    expect((await membership(projectId, BOB)).role).toBe('ADMIN');

    // An ADMIN may change another's role, and the new role holds at once: EDIT_ONLY may not invite, READ_WRITE may.
    expect(await statusOf(CAT, 'share_project', { project_id: projectId, email: 'friend@share.test' })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await statusOf(BOB, 'project_change_role', { id: projectId, user_id: CAT, role: 'READ_WRITE' })).toBe('ok');
    expect((await membership(projectId, CAT)).role).toBe('READ_WRITE');
    expect(await statusOf(CAT, 'share_project', { project_id: projectId, email: 'friend@share.test' })).toBe('ok');
  });

  it('grants no role above the granter\'s own: a READ_WRITE collaborator invites no ADMIN, and nothing is written', async () => {
    const projectId = await addProject(ANN, 'Escalation');
    await join(projectId, BOB, 'READ_WRITE');
    const sentBefore = (await events(SENT)).length;

    // The reproduction of issue #28: B, READ_WRITE, invites H as ADMIN. Refused, naming what B may give.
    expect(await statusOf(BOB, 'share_project', { project_id: projectId, email: 'helper@share.test', role: 'ADMIN' })).toMatchObject({
      error_tag: 'FORBIDDEN',
      error_extra: { argument: 'role', role: 'READ_WRITE', grantable_roles: ['READ_WRITE', 'EDIT_ONLY', 'COMPLETE_ONLY'] },
    });
    expect(await events(SENT)).toHaveLength(sentBefore);
    expect(await dataSource.query(`SELECT 1 FROM sync.project_invitations WHERE project_id = $1 AND invitee_email = 'helper@share.test'`, [projectId])).toEqual([]);
    // What B may give, B gives.
    for (const role of ['READ_WRITE', 'EDIT_ONLY', 'COMPLETE_ONLY']) {
      expect(await statusOf(BOB, 'share_project', { project_id: projectId, email: `${role.toLowerCase()}@share.test`, role })).toBe('ok');
    }
    // B cannot raise anyone, not even themselves, above READ_WRITE once ADMIN is out of reach.
    expect(await statusOf(BOB, 'project_change_role', { id: projectId, user_id: BOB, role: 'ADMIN' })).toMatchObject({ error_tag: 'FORBIDDEN' });
    // An ADMIN gives ADMIN (no more than they hold); the CREATOR gives any collaborator role.
    expect(await statusOf(ANN, 'project_change_role', { id: projectId, user_id: BOB, role: 'ADMIN' })).toBe('ok');
    expect(await statusOf(BOB, 'share_project', { project_id: projectId, email: 'second-admin@share.test', role: 'ADMIN' })).toBe('ok');
    await join(projectId, CAT, 'READ_WRITE');
    expect(await statusOf(BOB, 'project_change_role', { id: projectId, user_id: CAT, role: 'ADMIN' })).toBe('ok');
    expect((await membership(projectId, CAT)).role).toBe('ADMIN');
  });

  it('removes a collaborator: their tasks are unassigned, they lose the project at once, and the others are told', async () => {
    const projectId = await addProject(ANN, 'Remove');
    const elsewhere = await addProject(ANN, 'Elsewhere');
    await join(projectId, BOB, 'READ_WRITE');
    await join(projectId, CAT, 'READ_WRITE');
    await join(elsewhere, BOB, 'READ_WRITE');
    const task = await runAs(ANN, 'item_add', { content: 'Bob does it', project_id: projectId }, randomUUID(), 'bob-task');
    const other = await runAs(ANN, 'item_add', { content: 'Bob does that', project_id: elsewhere }, randomUUID(), 'bob-other');
    const [taskId, otherId] = [task.mapping['bob-task'], other.mapping['bob-other']];
    // Assignment is another command's work: set here as it would leave it.
    await dataSource.query(`UPDATE sync.items SET responsible_uid = $2, assigned_by_uid = $3 WHERE id = ANY($1::bigint[])`, [[taskId, otherId], BOB, ANN]);

    expect(await statusOf(CAT, 'delete_collaborator', { project_id: projectId, email: EMAIL[BOB] })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await statusOf(ANN, 'delete_collaborator', { project_id: projectId, email: EMAIL[ANN] })).toMatchObject({ error_tag: 'FORBIDDEN', error_extra: { argument: 'email' } });
    expect(await statusOf(ANN, 'delete_collaborator', { project_id: projectId, email: 'nobody@share.test' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'email' } });

    expect(await statusOf(ANN, 'delete_collaborator', { project_id: projectId, email: 'BOB@share.test' })).toBe('ok');

    const removed = await membership(projectId, BOB);
    expect(removed.state).toBe('deleted');
    const items = await dataSource.query<Array<{ id: string; responsible_uid: string | null; assigned_by_uid: string | null; version: string }>>(
      `SELECT id::text, responsible_uid::text, assigned_by_uid::text, version::text FROM sync.items WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[taskId, otherId]],
    );
    expect(items).toEqual([
      { id: taskId, responsible_uid: null, assigned_by_uid: null, version: removed.version },
      expect.objectContaining({ id: otherId, responsible_uid: BOB }),
    ]);
    expect(await visibleProjects(BOB)).not.toContain(projectId);
    expect(await visibleProjects(BOB)).toContain(elsewhere);
    expect(await highWater(BOB)).toBeGreaterThanOrEqual(BigInt(removed.version));
    expect(await projectVersion(projectId)).toBe(removed.version);
    expect(await statusOf(BOB, 'item_add', { content: 'too late', project_id: projectId })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    expect(await lastEvent<CollaboratorLeft>(LEFT)).toEqual({
      projectId,
      projectName: 'Remove',
      userId: BOB,
      userName: `User ${BOB}`,
      removedBy: ANN,
      memberIds: [ANN, CAT],
    });

    // Invited again, Bob's old membership comes back with the new role.
    await join(projectId, BOB, 'EDIT_ONLY');
    expect(await membership(projectId, BOB)).toMatchObject({ role: 'EDIT_ONLY', state: 'active' });
  });

  it('withdraws an address\'s open invitation when delete_collaborator names an invited, not yet active, collaborator', async () => {
    const projectId = await addProject(ANN, 'Invited only');
    const sent = await invite(ANN, projectId, EMAIL[CAT]);
    expect(await statusOf(ANN, 'delete_collaborator', { project_id: projectId, email: EMAIL[CAT] })).toBe('ok');
    expect(await invitationRow(sent.invitationId)).toMatchObject({ state: 'deleted' });
    expect(await lastEvent<ShareInvitationAnswered>(ANSWERED)).toMatchObject({ invitationId: sent.invitationId, answer: 'deleted' });
  });

  it('lets a member leave (removedBy null), never the CREATOR', async () => {
    const projectId = await addProject(ANN, 'Leave');
    await join(projectId, CAT, 'COMPLETE_ONLY');

    expect(await statusOf(ANN, 'project_leave', { project_id: projectId })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await membership(projectId, ANN)).toMatchObject({ role: 'CREATOR', state: 'active' });

    expect(await statusOf(CAT, 'project_leave', { project_id: projectId })).toBe('ok');
    expect((await membership(projectId, CAT)).state).toBe('deleted');
    expect(await visibleProjects(CAT)).not.toContain(projectId);
    expect(await lastEvent<CollaboratorLeft>(LEFT)).toMatchObject({ projectId, userId: CAT, removedBy: null, memberIds: [ANN] });
    expect(await statusOf(CAT, 'project_leave', { project_id: projectId })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
  });

  it('offers a waiting invitation to the account created for its address, under a new secret, once', async () => {
    const projectId = await addProject(ANN, 'Waiting');
    const waiting = await invite(ANN, projectId, 'Newbie@Share.test', { role: 'EDIT_ONLY' });
    expect(waiting).toMatchObject({ inviteeEmail: 'newbie@share.test', inviteeId: null, role: 'EDIT_ONLY' });
    expect(await invitationRow(waiting.invitationId)).toMatchObject({ invitee_id: null });
    const sentBefore = (await events(SENT)).length;
    const changedBefore = (await events(CHANGED)).length;

    const created = { userId: NEWBIE, email: 'newbie@share.test', fullName: 'Newbie', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: true, emailVerified: true };
    await db.transaction((tx) => accounts.welcome(tx, created));

    const offered = await events<ShareInvitationSent>(SENT);
    expect(offered).toHaveLength(sentBefore + 1);
    const sent = offered.at(-1)!;
    expect(sent).toMatchObject({ invitationId: waiting.invitationId, inviteeId: NEWBIE, projectName: 'Waiting', inviter: { id: ANN }, role: 'EDIT_ONLY' });
    expect(sent.invitationSecret).not.toBe(waiting.invitationSecret);
    expect(await invitationRow(waiting.invitationId)).toMatchObject({ state: 'invited', invitee_id: NEWBIE, secret_hash: hashToken(sent.invitationSecret) });

    // The inviter's open sockets hear of it (the invitee's collaborator record is news to them), with the new account.
    const changed = await events<UsersChanged>(CHANGED);
    expect(changed).toHaveLength(changedBefore + 1);
    expect(changed.at(-1)!.userIds.slice().sort()).toEqual([ANN, NEWBIE].sort());
    expect(changed.at(-1)!.version).toBe((await dataSource.query(`SELECT version::text FROM sync.users WHERE id = $1`, [NEWBIE]))[0].version);

    // A redelivered event offers nothing again, and tells no one.
    await db.transaction((tx) => accounts.welcome(tx, created));
    expect(await events(SENT)).toHaveLength(sentBefore + 1);
    expect(await events(CHANGED)).toHaveLength(changedBefore + 1);

    expect(await statusOf(NEWBIE, 'accept_invitation', { invitation_id: waiting.invitationId, invitation_secret: waiting.invitationSecret })).toMatchObject({
      error_extra: { argument: 'invitation_secret' },
    });
    expect(await statusOf(NEWBIE, 'accept_invitation', { invitation_id: waiting.invitationId, invitation_secret: sent.invitationSecret })).toBe('ok');
    expect(await membership(projectId, NEWBIE)).toMatchObject({ role: 'EDIT_ONLY', state: 'active' });
  });

  it('answers the invitation an account signed up from (the mailed secret) under its new secret; a wrong secret answers nothing', async () => {
    const projectId = await addProject(ANN, 'Mailed');
    const mailed = await invite(ANN, projectId, 'mailed@share.test', { role: 'READ_WRITE' });
    const other = await invite(ANN, projectId, 'guessed@share.test', { role: 'READ_WRITE' });
    const account = (userId: string, email: string, invitation: { id: string; secret: string }) => ({
      userId, email, fullName: email, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: true, invitation,
    });

    const from = await db.transaction((tx) => accounts.welcome(tx, account('7291', 'mailed@share.test', { id: mailed.invitationId, secret: mailed.invitationSecret })));
    const sent = (await events<ShareInvitationSent>(SENT)).at(-1)!;
    expect(from).toEqual({ kind: 'project', invitationId: mailed.invitationId, invitationSecret: sent.invitationSecret });
    expect(await statusOf('7291', 'accept_invitation', { invitation_id: from!.invitationId, invitation_secret: from!.invitationSecret })).toBe('ok');
    expect(await membership(projectId, '7291')).toMatchObject({ role: 'READ_WRITE', state: 'active' });

    // Another invitation's id, or the right id with a made-up secret: the invitation waits for the
    // address to be proven (issue #44: a sign-up's is not), then is offered as usual.
    expect(await db.transaction((tx) => accounts.welcome(tx, account('7292', 'guessed@share.test', { id: other.invitationId, secret: 'not-the-secret-0123456789' })))).toBeUndefined();
    expect(await invitationRow(other.invitationId)).toMatchObject({ state: 'invited', invitee_id: null });
    await db.transaction(async (tx) => {
      expect(await profiles.markEmailVerified(tx.manager, '7292', 'guessed@share.test')).toBe(true);
      await accounts.addressProven(tx, '7292');
    });
    expect(await invitationRow(other.invitationId)).toMatchObject({ state: 'invited', invitee_id: '7292' });
  });

  // Issue #44: an account made by sign-up with someone's address, never proven, is no account of that address.
  it('invites an unproven account as an address without an account: by mail, not to the account', async () => {
    await db.transaction((tx) =>
      accounts.welcome(tx, { userId: '7293', email: 'squatter@share.test', fullName: 'S', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: true }),
    );
    const projectId = await addProject(ANN, 'Not for squatters');
    const sent = await invite(ANN, projectId, 'squatter@share.test');
    expect(sent).toMatchObject({ inviteeEmail: 'squatter@share.test', inviteeId: null });
    expect(await invitationRow(sent.invitationId)).toMatchObject({ invitee_id: null });
  });

  it('runs a retried uuid once: the same answer, one invitation event, one membership change', async () => {
    const projectId = await addProject(ANN, 'Retry');
    const sentBefore = (await events(SENT)).length;
    const shareUuid = randomUUID();
    const first = await runAs(ANN, 'share_project', { project_id: projectId, email: EMAIL[CAT] }, shareUuid);
    const again = await runAs(ANN, 'share_project', { project_id: projectId, email: EMAIL[CAT] }, shareUuid);
    expect(first.status).toBe('ok');
    expect(again.status).toBe('ok');
    expect(await events(SENT)).toHaveLength(sentBefore + 1);

    const sent = await lastEvent<ShareInvitationSent>(SENT);
    const acceptUuid = randomUUID();
    const args = { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret };
    expect((await runAs(CAT, 'accept_invitation', args, acceptUuid)).status).toBe('ok');
    const joined = await membership(projectId, CAT);
    const answeredBefore = (await events(ANSWERED)).length;
    expect((await runAs(CAT, 'accept_invitation', args, acceptUuid)).status).toBe('ok');
    expect(await membership(projectId, CAT)).toEqual(joined);
    expect(await events(ANSWERED)).toHaveLength(answeredBefore);
  });

  it('tells (usersChanged) exactly who sees each change: the actor, the members of a shared project, a removed collaborator', async () => {
    const told = async () => (await lastEvent<UsersChanged>(CHANGED)).userIds.slice().sort();
    const projectId = await addProject(ANN, 'Pushed');
    expect(await told()).toEqual([ANN]);
    await join(projectId, BOB, 'READ_WRITE');
    expect(await statusOf(ANN, 'item_add', { content: 'for Bob too', project_id: projectId })).toBe('ok');
    expect(await told()).toEqual([ANN, BOB]);
    // CAT is a stranger to this project: an item in ANN's own Inbox tells ANN alone.
    expect(await statusOf(ANN, 'item_add', { content: 'mine' })).toBe('ok');
    expect(await told()).toEqual([ANN]);
    expect(await statusOf(ANN, 'delete_collaborator', { project_id: projectId, email: EMAIL[BOB] })).toBe('ok');
    const removal = await lastEvent<UsersChanged>(CHANGED);
    expect(removal.userIds.slice().sort()).toEqual([ANN, BOB]);
    // One event per change, stamped with its version.
    expect(removal.version).toMatch(/^[0-9]+$/);
    const refusedBefore = (await events<UsersChanged>(CHANGED)).length;
    expect(await statusOf(CAT, 'item_add', { content: 'nope', project_id: projectId })).toMatchObject({ error_tag: expect.any(String) });
    expect(await events<UsersChanged>(CHANGED)).toHaveLength(refusedBefore);
  });
});
