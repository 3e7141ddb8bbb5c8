import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { ServiceClient } from '@doable/shared-transport';
import type { DataSource } from 'typeorm';
import { CollaboratorRepository, CompletedInfoRepository, CompletionStatsRepository, ItemRepository, LabelRepository, NoteRepository, PlanLimitsRepository, ProductivityStatsService, ProjectRepository, ReminderRepository, SectionRepository, syncMigrations, UserProfileRepository, ViewOptionsRepository } from '@doable/sync-domain';
import { MembershipChangesRepository } from './membership-changes.repository';
import type { ResourceSource } from './sources/resource-source';
import { CollaboratorSource } from './sources/collaborator.source';
import { CompletedInfoSource } from './sources/completed-info.source';
import { ItemSource } from './sources/item.source';
import { NoteSource } from './sources/note.source';
import { ProjectSource } from './sources/project.source';
import { ReminderSource } from './sources/reminder.source';
import { SectionSource } from './sources/section.source';
import { ProjectViewOptionsDefaultsSource } from './sources/view-options.source';
import { SyncReader } from './sync-reader';
import type { SyncRead } from './sync-snapshot';

const ALICE = '8001';
const BOB = '8002';
const CAROL = '8003';
const TYPES = ['projects', 'sections', 'items', 'notes', 'reminders', 'collaborators', 'project_view_options_defaults', 'completed_info'];

/**
 * What members read of a shared project, through the real reader and database: the membership
 * rows are written as the sharing commands leave them (a fresh change version on the membership
 * and the project, the members' high-water marks raised), so this covers the read side alone.
 */
describe('sync reads of shared projects', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let reader: SyncReader;
  let projectId: string;
  const ids: Record<'section' | 'task' | 'done' | 'taskNote' | 'projectNote' | 'reminder', string> = { section: '', task: '', done: '', taskNote: '', projectNote: '', reminder: '' };

  const nextVersion = async () => (await dataSource.query<Array<{ v: string }>>(`SELECT nextval('sync.change_version')::text AS v`))[0].v;
  const raise = (version: string, users: string[]) => dataSource.query(`UPDATE sync.users SET high_water = GREATEST(high_water, $1) WHERE id = ANY($2::bigint[])`, [version, users]);
  const idsOf = (rows: ReadonlyArray<{ id: string }> | undefined) => (rows ?? []).map((row) => row.id).sort();
  const collaboration = (read: SyncRead) => read.rows.collaborators?.[0] ?? { collaborators: [], states: [] };
  const statesOf = (read: SyncRead) =>
    collaboration(read)
      .states.map((state) => `${state.project_id}:${state.user_id}:${state.state}${state.is_deleted ? ':deleted' : ''}`)
      .sort();

  /** Membership changes as the sharing commands make them: membership and project under one fresh version, the members' marks raised. */
  async function changeMembership(sql: string, params: unknown[], touched: string[]): Promise<void> {
    const version = await nextVersion();
    await dataSource.query(sql.replace('$version', `${version}`), params);
    await dataSource.query(`UPDATE sync.projects SET version = $2 WHERE id = $1`, [projectId, version]);
    await raise(version, touched);
  }

  beforeAll(async () => {
    database = await createTestDatabase('shared_projects_read');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 2, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const [id, name] of [[ALICE, 'Alice'], [BOB, 'Bob'], [CAROL, 'Carol']]) {
      await dataSource.transaction((manager) =>
        profiles.createWithInbox(manager, { id, email: `${name.toLowerCase()}@test`, fullName: name, timezone: 'Europe/Berlin', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
      );
    }
    const projects = new ProjectRepository();
    const items = new ItemRepository();
    const notes = new NoteRepository();
    const sources: ResourceSource[] = [
      new ProjectSource(projects),
      new ItemSource(items, notes),
      new SectionSource(new SectionRepository()),
      new NoteSource(notes),
      new ReminderSource(new ReminderRepository()),
      new CollaboratorSource(new CollaboratorRepository()),
      new ProjectViewOptionsDefaultsSource(new ViewOptionsRepository()),
      new CompletedInfoSource(new CompletedInfoRepository()),
    ];
    const relay = new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, createLogger('test', 'silent'));
    const noServices = { request: () => Promise.reject(new Error('no remote calls in these reads')) } as unknown as ServiceClient;
    reader = new SyncReader(
      new Database(dataSource, 'sync', relay),
      profiles,
      sources,
      noServices,
      new ProductivityStatsService(new CompletionStatsRepository(), profiles),
      items,
      projects,
      new LabelRepository(),
      new MembershipChangesRepository(),
      new PlanLimitsRepository(),
    );

    // Alice's project, with one of everything, long before anyone joins it.
    const version = await nextVersion();
    [{ id: projectId }] = await dataSource.query(`INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, 'Garden', 1, $2) RETURNING id::text`, [ALICE, version]);
    await dataSource.query(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'CREATOR', $3)`, [projectId, ALICE, version]);
    [{ id: ids.section }] = await dataSource.query(`INSERT INTO sync.sections (user_id, project_id, name, version) VALUES ($1, $2, 'Beds', $3) RETURNING id::text`, [ALICE, projectId, version]);
    [{ id: ids.task }] = await dataSource.query(
      `INSERT INTO sync.items (user_id, project_id, section_id, content, child_order, added_by_uid, due, version)
       VALUES ($1, $2, $3, 'Water the roses', 1, $1, '{"date":"2024-05-06","timezone":null,"string":"today","lang":"en","is_recurring":false}', $4) RETURNING id::text`,
      [ALICE, projectId, ids.section, version],
    );
    [{ id: ids.taskNote }] = await dataSource.query(`INSERT INTO sync.notes (project_id, item_id, posted_uid, content, version) VALUES ($1, $2, $3, 'Twice a day', $4) RETURNING id::text`, [
      projectId,
      ids.task,
      ALICE,
      version,
    ]);
    [{ id: ids.projectNote }] = await dataSource.query(`INSERT INTO sync.notes (project_id, posted_uid, content, version) VALUES ($1, $2, 'Spring plans', $3) RETURNING id::text`, [
      projectId,
      ALICE,
      version,
    ]);
    [{ id: ids.reminder }] = await dataSource.query(
      `INSERT INTO sync.reminders (project_id, item_id, notify_uid, type, minute_offset, version) VALUES ($1, $2, $3, 'relative', 30, $4) RETURNING id::text`,
      [projectId, ids.task, ALICE, version],
    );
    await dataSource.query(`INSERT INTO sync.project_view_options_defaults (project_id, version) VALUES ($1, $2)`, [projectId, version]);
    // A completed task in history: counted in the project's completed_info.
    [{ id: ids.done }] = await dataSource.query(
      `INSERT INTO sync.items (user_id, project_id, content, child_order, checked, in_history, completed_at, version) VALUES ($1, $2, 'Done', 3, true, true, now(), $3) RETURNING id::text`,
      [ALICE, projectId, version],
    );
    // A deleted task of the project: never part of what a joining member is sent.
    await dataSource.query(`INSERT INTO sync.items (user_id, project_id, content, child_order, is_deleted, version) VALUES ($1, $2, 'Gone', 2, true, $3)`, [ALICE, projectId, version]);
    await raise(version, [ALICE]);
    // Bob and Carol work in their own accounts after that: their tokens are newer than every row of Alice's project.
    await raise(await nextVersion(), [BOB, CAROL]);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('carries a project joined after the token whole, with its collaborators, and its tombstones after leaving', async () => {
    const bobBefore = await reader.read(BOB, '*', TYPES);
    const aliceBefore = await reader.read(ALICE, '*', TYPES);
    const carolBefore = await reader.read(CAROL, '*', TYPES);
    expect(bobBefore.rows.projects?.map((project) => project.id)).not.toContain(projectId);
    expect(collaboration(bobBefore)).toEqual({ collaborators: [], states: [] });
    expect(collaboration(aliceBefore)).toEqual({ collaborators: [], states: [] });
    expect(aliceBefore.rows.projects?.find((project) => project.id === projectId)?.shared).toBe(false);

    // Bob joins.
    await changeMembership(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'READ_WRITE', $version)`, [projectId, BOB], [ALICE, BOB]);

    const bobJoined = await reader.read(BOB, bobBefore.syncToken, TYPES);
    expect(bobJoined.fullSync).toBe(false);
    expect(bobJoined.rows.projects?.map((project) => [project.id, project.is_deleted, project.shared])).toEqual([[projectId, false, true]]);
    expect(idsOf(bobJoined.rows.sections)).toEqual([ids.section]);
    // The active tasks, as a full sync has them (not the deleted one), though all are older than Bob's token.
    expect(idsOf(bobJoined.rows.items)).toEqual([ids.task]);
    expect(bobJoined.rows.items?.find((item) => item.id === ids.task)?.note_count).toBe(1);
    expect(idsOf(bobJoined.rows.notes)).toEqual([ids.taskNote, ids.projectNote].sort());
    expect(idsOf(bobJoined.rows.reminders)).toEqual([ids.reminder]);
    expect(bobJoined.rows.project_view_options_defaults?.map((row) => [row.project_id, row.is_deleted])).toEqual([[projectId, false]]);
    expect(bobJoined.rows.completed_info).toContainEqual({ kind: 'project', id: projectId, completedItems: 1, archivedSections: 0 });
    expect(collaboration(bobJoined).collaborators.map((user) => [user.id, user.full_name, user.email, user.timezone, user.image_id])).toEqual([
      [ALICE, 'Alice', 'alice@test', 'Europe/Berlin', null],
      [BOB, 'Bob', 'bob@test', 'Europe/Berlin', null],
    ]);
    expect(statesOf(bobJoined)).toEqual([`${projectId}:${ALICE}:active`, `${projectId}:${BOB}:active`]);

    // Alice sees her project become shared, and Bob in it; Carol, in no project of theirs, reads nothing.
    const aliceJoined = await reader.read(ALICE, aliceBefore.syncToken, TYPES);
    expect(aliceJoined.rows.projects?.map((project) => [project.id, project.shared])).toEqual([[projectId, true]]);
    expect(aliceJoined.rows.items).toEqual([]);
    expect(statesOf(aliceJoined)).toEqual([`${projectId}:${ALICE}:active`, `${projectId}:${BOB}:active`]);
    expect(collaboration(aliceJoined).collaborators.map((user) => user.id)).toEqual([ALICE, BOB]);
    const carolAfter = await reader.read(CAROL, carolBefore.syncToken, TYPES);
    expect(carolAfter.rows.projects).toEqual([]);
    expect(collaboration(carolAfter)).toEqual({ collaborators: [], states: [] });

    // A full sync of Bob's has the project and its collaborators too.
    const bobFull = await reader.read(BOB, '*', TYPES);
    expect(bobFull.rows.projects?.map((project) => project.id)).toContain(projectId);
    expect(idsOf(bobFull.rows.items)).toContain(ids.task);
    expect(statesOf(bobFull)).toEqual([`${projectId}:${ALICE}:active`, `${projectId}:${BOB}:active`]);

    // Nothing changed for Bob since: the next incremental sync carries nothing of it again.
    const bobQuiet = await reader.read(BOB, bobJoined.syncToken, TYPES);
    expect(bobQuiet.rows.projects).toEqual([]);
    expect(bobQuiet.rows.items).toEqual([]);

    // Bob leaves (or is removed).
    await changeMembership(`UPDATE sync.project_members SET state = 'deleted', version = $version WHERE project_id = $1 AND user_id = $2`, [projectId, BOB], [ALICE, BOB]);

    const bobLeft = await reader.read(BOB, bobJoined.syncToken, TYPES);
    expect(bobLeft.rows.projects?.map((project) => [project.id, project.is_deleted])).toEqual([[projectId, true]]);
    expect(bobLeft.rows.sections?.map((section) => [section.id, section.is_deleted])).toEqual([[ids.section, true]]);
    // Completed tasks too: the client may hold them.
    expect(bobLeft.rows.items?.map((item) => [item.id, item.is_deleted])).toEqual([
      [ids.task, true],
      [ids.done, true],
    ]);
    expect(bobLeft.rows.notes?.every((note) => note.is_deleted)).toBe(true);
    expect(idsOf(bobLeft.rows.notes)).toEqual([ids.taskNote, ids.projectNote].sort());
    expect(bobLeft.rows.reminders?.map((reminder) => [reminder.id, reminder.is_deleted])).toEqual([[ids.reminder, true]]);
    expect(bobLeft.rows.project_view_options_defaults?.map((row) => [row.project_id, row.is_deleted])).toEqual([[projectId, true]]);
    expect(statesOf(bobLeft)).toEqual([`${projectId}:${BOB}:active:deleted`]);
    expect(collaboration(bobLeft).states[0].role).toBe('READ_WRITE');

    // After leaving, a full sync shows nothing of it.
    const bobFullAfter = await reader.read(BOB, '*', TYPES);
    expect(bobFullAfter.rows.projects?.map((project) => project.id)).not.toContain(projectId);
    expect(idsOf(bobFullAfter.rows.items)).not.toContain(ids.task);
    expect(collaboration(bobFullAfter)).toEqual({ collaborators: [], states: [] });

    // Alice reads Bob's departure, and her project is no longer shared (her own state goes too).
    const aliceLeft = await reader.read(ALICE, aliceJoined.syncToken, TYPES);
    expect(aliceLeft.rows.projects?.map((project) => [project.id, project.shared, project.is_deleted])).toEqual([[projectId, false, false]]);
    expect(statesOf(aliceLeft)).toEqual([`${projectId}:${ALICE}:active:deleted`, `${projectId}:${BOB}:active:deleted`]);

    // Bob's next incremental sync carries no more tombstones.
    const bobQuietAgain = await reader.read(BOB, bobLeft.syncToken, TYPES);
    expect(bobQuietAgain.rows.projects).toEqual([]);
    expect(bobQuietAgain.rows.items).toEqual([]);
  });

  it('shows an open invitation to an existing user to the members, never to the invitee', async () => {
    const aliceBefore = await reader.read(ALICE, '*', TYPES);
    const carolBefore = await reader.read(CAROL, '*', TYPES);
    await changeMembership(
      `INSERT INTO sync.project_invitations (project_id, inviter_id, invitee_email, invitee_id, role, secret_hash, version) VALUES ($1, $2, 'carol@test', $3, 'READ_WRITE', 'hash', $version)`,
      [projectId, ALICE, CAROL],
      [ALICE],
    );

    const aliceInvited = await reader.read(ALICE, aliceBefore.syncToken, TYPES);
    expect(statesOf(aliceInvited)).toEqual([`${projectId}:${ALICE}:active`, `${projectId}:${CAROL}:invited`]);
    expect(collaboration(aliceInvited).collaborators.map((user) => user.id)).toEqual([ALICE, CAROL]);
    // A project with one member is not shared, even with an invitation open.
    expect(aliceInvited.rows.projects?.map((project) => [project.id, project.shared])).toEqual([[projectId, false]]);
    expect(statesOf(await reader.read(ALICE, '*', TYPES))).toEqual([`${projectId}:${ALICE}:active`, `${projectId}:${CAROL}:invited`]);

    const carolFull = await reader.read(CAROL, '*', TYPES);
    expect(carolFull.rows.projects?.map((project) => project.id)).not.toContain(projectId);
    expect(collaboration(carolFull)).toEqual({ collaborators: [], states: [] });
    const carolIncremental = await reader.read(CAROL, carolBefore.syncToken, TYPES);
    expect(collaboration(carolIncremental)).toEqual({ collaborators: [], states: [] });

    // Withdrawn: Alice's next read has the invited state as a tombstone.
    await changeMembership(`UPDATE sync.project_invitations SET state = 'deleted', version = $version WHERE project_id = $1 AND invitee_id = $2`, [projectId, CAROL], [ALICE]);
    const aliceWithdrawn = await reader.read(ALICE, aliceInvited.syncToken, TYPES);
    expect(statesOf(aliceWithdrawn)).toEqual([`${projectId}:${ALICE}:active:deleted`, `${projectId}:${CAROL}:invited:deleted`]);
  });

  it('lists a collaborator whose profile changed after the token', async () => {
    await changeMembership(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'READ_WRITE', $version) ON CONFLICT (project_id, user_id) DO UPDATE SET state = 'active', version = EXCLUDED.version`, [projectId, BOB], [ALICE, BOB]);
    const aliceBefore = await reader.read(ALICE, '*', TYPES);
    const version = await nextVersion();
    await dataSource.query(`UPDATE sync.users SET full_name = 'Robert', version = $2 WHERE id = $1`, [BOB, version]);
    await raise(version, [ALICE, BOB]);

    const aliceAfter = await reader.read(ALICE, aliceBefore.syncToken, TYPES);
    expect(collaboration(aliceAfter).collaborators.map((user) => [user.id, user.full_name])).toEqual([[BOB, 'Robert']]);
    expect(collaboration(aliceAfter).states).toEqual([]);
    // Carol, who shares nothing with Bob, is not told.
    const carol = await reader.read(CAROL, '*', TYPES);
    expect(collaboration(carol).collaborators).toEqual([]);
  });
});
