import { commandHandlers } from '../testing/command-handlers.harness';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { SyncEvents } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { LabelRepository, PlanLimitsRepository, ProjectMembersRepository, ProjectRepository, SectionRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { CommandExecutor } from '../src/command-executor';
import type { CommandStatus } from '../src/command-status';
import { ItemQuickAddCommand } from '../src/commands/items/item-quick-add.command';

/** A owns the shared project; B is EDIT_ONLY in it, C COMPLETE_ONLY; D is no member. */
const A = '8301';
const B = '8302';
const C = '8303';
const D = '8304';
const principalOf = (userId: string): Principal => ({ userId, scopes: ['data:read_write', 'data:delete'], appId: null, tokenKind: 'personal' });

type Command = { type: string; args: Record<string, unknown>; temp_id?: string };

describe('Project roles, assignment and collaboration events in the command executor (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;
  let shared: string;
  let section: string;
  let task: string;
  let privateOfA: string;
  const inbox = new Map<string, string>();

  /** Runs the commands as the user in one request; answers their statuses and temp id mapping. */
  const send = async (userId: string, commands: Command[]) => {
    const withUuids = commands.map((command) => ({ ...command, uuid: randomUUID() }));
    const results = await executor.run(principalOf(userId), withUuids);
    return { statuses: withUuids.map((command) => results.syncStatus[command.uuid]), ids: results.tempIdMapping };
  };
  const one = async (userId: string, type: string, args: Record<string, unknown>): Promise<{ status: CommandStatus; id?: string }> => {
    const { statuses, ids } = await send(userId, [{ type, args, temp_id: 'new' }]);
    return { status: statuses[0], id: ids['new'] };
  };
  const added = async (userId: string, type: string, args: Record<string, unknown>): Promise<string> => {
    const { status, id } = await one(userId, type, args);
    expect(status).toBe('ok');
    return id!;
  };
  const refusal = (tag: string) => expect.objectContaining({ error_tag: tag });

  /** Everything a command could have written: the rows and the versions of the synced tables, and the outbox. */
  // The push channel's cue is left out: a command answered per id (item_reorder) counts as run even
  // when every id was refused, so its request still tells its users to sync (harmless, nothing new).
  const written = async () =>
    dataSource.query(
      `SELECT (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.items) AS items,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.sections) AS sections,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.projects) AS projects,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.notes) AS notes,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.reminders) AS reminders,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.view_options) AS views,
              (SELECT count(*) FROM sync.outbox WHERE subject <> 'sync.evt.users-changed.v1') AS outbox`,
    );
  const outboxMark = async () => Number((await dataSource.query<Array<{ id: string | null }>>(`SELECT max(id)::text AS id FROM sync.outbox`))[0].id ?? 0);
  // The collaboration events; the object events every command records (activity log, webhooks)
  // have their own spec (object-events.integration-spec.ts).
  const NOT_COLLABORATION = [SyncEvents.objectEvents.name, SyncEvents.usersChanged.name];
  const eventsSince = async (mark: number, subject?: string) =>
    (await dataSource.query<Array<{ subject: string; payload: Record<string, unknown> }>>(`SELECT subject, payload FROM sync.outbox WHERE id > $1 ORDER BY id`, [mark])).filter(
      // Without a subject: the collaboration events (not the object events or the push channel's cue every change has).
      (event) => (subject === undefined && !NOT_COLLABORATION.includes(event.subject)) || event.subject === subject,
    );
  const itemRow = async (id: string) =>
    (
      await dataSource.query<Array<{ content: string; project_id: string; responsible_uid: string | null; assigned_by_uid: string | null; checked: boolean; is_deleted: boolean }>>(
        `SELECT content, project_id::text, responsible_uid::text, assigned_by_uid::text, checked, is_deleted FROM sync.items WHERE id = $1`,
        [id],
      )
    )[0];

  beforeAll(async () => {
    database = await createTestDatabase('roles');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);

    const profiles = new UserProfileRepository();
    for (const [id, name] of [
      [A, 'Ann'],
      [B, 'Bob'],
      [C, 'Cid'],
      [D, 'Dee'],
    ]) {
      await dataSource.transaction((manager) =>
        profiles.createWithInbox(manager, { id, email: `${name.toLowerCase()}@roles.test`, fullName: name, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
      );
      const [row] = await dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.projects WHERE owner_id = $1 AND inbox_project`, [id]);
      inbox.set(id, row.id);
    }
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const [projects, sections, labels] = [new ProjectRepository(), new SectionRepository(), new LabelRepository()];
    const handlers = await commandHandlers();
    executor = new CommandExecutor(db, profiles, handlers, logger, [new ItemQuickAddCommand(handlers, projects, sections, labels)], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());

    const setup = await send(A, [
      { type: 'project_add', temp_id: 'shared', args: { name: 'Shared' } },
      { type: 'section_add', temp_id: 'section', args: { name: 'Doing', project_id: 'shared' } },
      { type: 'item_add', temp_id: 'task', args: { content: 'Shared task', project_id: 'shared' } },
      { type: 'project_add', temp_id: 'private', args: { name: 'Private' } },
    ]);
    expect(setup.statuses).toEqual(['ok', 'ok', 'ok', 'ok']);
    ({ shared, section, task, private: privateOfA } = setup.ids);
    await dataSource.query(
      `INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'EDIT_ONLY', 1), ($1, $3, 'COMPLETE_ONLY', 1)`,
      [shared, B, C],
    );
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  describe('EDIT_ONLY', () => {
    it('adds, edits, moves, completes and comments on tasks, and sets its own view of the project', async () => {
      const id = await added(B, 'item_add', { content: 'By B', project_id: shared });
      expect((await one(B, 'item_update', { id, content: 'By B, edited' })).status).toBe('ok');
      expect((await one(B, 'item_move', { id, section_id: section })).status).toBe('ok');
      expect((await one(B, 'item_complete', { id })).status).toBe('ok');
      expect((await one(B, 'item_uncomplete', { id })).status).toBe('ok');
      await added(B, 'reminder_add', { item_id: id, type: 'absolute', due: { date: '2031-01-01T09:00:00Z' } });
      await added(B, 'note_add', { item_id: id, content: 'noted' });
      expect((await one(B, 'view_options_set', { view_type: 'PROJECT', object_id: shared, view_mode: 'BOARD' })).status).toBe('ok');
      // Out of the shared project into B's own Inbox: B may edit in both.
      expect((await one(B, 'item_move', { id, project_id: inbox.get(B) })).status).toBe('ok');
      expect((await itemRow(id)).project_id).toBe(inbox.get(B));
    });

    it('is refused what organises or manages the project, and nothing is written', async () => {
      const before = await written();
      const { statuses } = await send(B, [
        { type: 'section_add', args: { name: 'Mine', project_id: shared } },
        { type: 'section_update', args: { id: section, name: 'Renamed' } },
        { type: 'section_move', args: { id: section, project_id: inbox.get(B) } },
        { type: 'project_update', args: { id: shared, name: 'Renamed' } },
        { type: 'project_archive', args: { id: shared } },
        { type: 'project_delete', args: { id: shared } },
        { type: 'project_add', args: { name: 'Under the shared one', parent_id: shared } },
        { type: 'project_view_options_defaults_set', args: { project_id: shared, view_mode: 'BOARD' } },
      ]);
      expect(statuses).toEqual(statuses.map(() => refusal('FORBIDDEN')));
      expect(await written()).toEqual(before);
    });

    it('places its own projects from flat positions without re-placing the shared one, which it may not move', async () => {
      const place = async () =>
        (await dataSource.query<Array<{ child_order: number; version: string }>>(`SELECT child_order, version::text FROM sync.projects WHERE id = $1`, [shared]))[0];
      const before = await place();
      const { status } = await one(B, 'project_update_orders_indents', { ids_to_orders_indents: { [shared]: [1, 1] } });
      expect(status).toEqual({ [shared]: refusal('FORBIDDEN') });
      // First in B's list: every project after it is renumbered, but the shared one keeps its place.
      const id = await added(B, 'project_add_flat', { name: 'First of B', item_order: 1, indent: 1 });
      const [{ owner }] = await dataSource.query<Array<{ owner: string }>>(`SELECT owner_id::text AS owner FROM sync.projects WHERE id = $1`, [id]);
      expect(owner).toBe(B);
      expect(await place()).toEqual(before);
      // Its owner may put a project under it.
      await added(A, 'project_add', { name: 'Under the shared one', parent_id: shared });
    });
  });

  describe('COMPLETE_ONLY', () => {
    it('completes, reopens, closes, comments and reacts', async () => {
      const id = await added(A, 'item_add', { content: 'For C to check', project_id: shared });
      expect((await one(C, 'item_complete', { id })).status).toBe('ok');
      expect((await one(C, 'item_uncomplete', { id })).status).toBe('ok');
      expect((await one(C, 'item_close', { id })).status).toBe('ok');
      expect((await itemRow(id)).checked).toBe(true);
      const note = await added(C, 'note_add', { item_id: id, content: 'done it' });
      await added(C, 'note_add', { project_id: shared, content: 'on the project' });
      expect((await one(C, 'note_reaction_add', { id: note, reaction: '👍' })).status).toBe('ok');
      // Its own comment stays its own to change.
      expect((await one(C, 'note_update', { id: note, content: 'done it!' })).status).toBe('ok');
      expect((await one(C, 'note_delete', { id: note })).status).toBe('ok');
    });

    it('is refused adding, editing, moving, deleting and reminding, on every path, and nothing is written', async () => {
      const ownNote = await added(A, 'note_add', { item_id: task, content: "A's comment" });
      const ownTask = await added(C, 'item_add', { content: 'C in its Inbox' });
      const before = await written();
      const { statuses } = await send(C, [
        { type: 'item_add', args: { content: 'x', project_id: shared } },
        { type: 'item_add', args: { content: 'x', section_id: section } },
        { type: 'item_add', args: { content: 'x', parent_id: task } },
        { type: 'item_add_flat', args: { content: 'x', project_id: shared, item_order: 1, indent: 1 } },
        { type: 'item_update', args: { id: task, content: 'changed' } },
        { type: 'item_update', args: { id: task, responsible_uid: C } },
        { type: 'item_delete', args: { id: task } },
        { type: 'item_move', args: { id: task, project_id: inbox.get(C) } },
        // Into the shared project: the target's role counts too.
        { type: 'item_move', args: { id: ownTask, project_id: shared } },
        { type: 'item_reorder', args: { items: [{ id: task, child_order: 5 }] } },
        { type: 'reminder_add', args: { item_id: task, type: 'absolute', due: { date: '2031-01-01T09:00:00Z' } } },
        { type: 'section_add', args: { name: 'x', project_id: shared } },
        { type: 'note_update', args: { id: ownNote, content: 'rewritten' } },
        { type: 'note_delete', args: { id: ownNote } },
      ]);
      expect(statuses.slice(0, 9)).toEqual(statuses.slice(0, 9).map(() => refusal('FORBIDDEN')));
      // An id list answers per id.
      expect(statuses[9]).toEqual({ [task]: refusal('FORBIDDEN') });
      expect(statuses.slice(10)).toEqual(statuses.slice(10).map(() => refusal('FORBIDDEN')));
      expect(await written()).toEqual(before);
    });

    it('is refused item_add in the batched path too, while its own Inbox task in the same request is added', async () => {
      const before = await written();
      const { statuses } = await send(C, [
        { type: 'item_add', args: { content: 'batched 1', project_id: shared } },
        { type: 'item_add', args: { content: 'batched 2', project_id: shared } },
        { type: 'item_add', args: { content: 'batched 3', project_id: shared } },
      ]);
      expect(statuses).toEqual([refusal('FORBIDDEN'), refusal('FORBIDDEN'), refusal('FORBIDDEN')]);
      expect(await written()).toEqual(before);
      const mixed = await send(C, [
        { type: 'item_add', args: { content: 'mine 1' } },
        { type: 'item_add', args: { content: 'batched 4', project_id: shared } },
        { type: 'item_add', args: { content: 'mine 2' } },
      ]);
      expect(mixed.statuses).toEqual(['ok', refusal('FORBIDDEN'), 'ok']);
      const [{ n }] = await dataSource.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM sync.items WHERE content LIKE 'batched%'`);
      expect(Number(n)).toBe(0);
    });

    it('lets an EDIT_ONLY member add several tasks in one batched request', async () => {
      const { statuses } = await send(B, [
        { type: 'item_add', args: { content: 'B batched 1', project_id: shared } },
        { type: 'item_add', args: { content: 'B batched 2', project_id: shared } },
      ]);
      expect(statuses).toEqual(['ok', 'ok']);
    });
  });

  it('answers a non-member as if the objects did not exist', async () => {
    const before = await written();
    const { statuses } = await send(D, [
      { type: 'item_update', args: { id: task, content: 'x' } },
      { type: 'item_complete', args: { id: task } },
      { type: 'item_add', args: { content: 'x', project_id: shared } },
      { type: 'item_add', args: { content: 'x', section_id: section } },
      { type: 'project_update', args: { id: shared, name: 'x' } },
      { type: 'section_update', args: { id: section, name: 'x' } },
      { type: 'note_add', args: { item_id: task, content: 'x' } },
      { type: 'view_options_set', args: { view_type: 'PROJECT', object_id: shared, view_mode: 'BOARD' } },
    ]);
    expect(statuses).toEqual([
      refusal('ITEM_NOT_FOUND'),
      refusal('ITEM_NOT_FOUND'),
      refusal('PROJECT_NOT_FOUND'),
      refusal('SECTION_NOT_FOUND'),
      refusal('PROJECT_NOT_FOUND'),
      refusal('SECTION_NOT_FOUND'),
      refusal('ITEM_NOT_FOUND'),
      refusal('PROJECT_NOT_FOUND'),
    ]);
    expect(await written()).toEqual(before);
  });

  describe('assignment', () => {
    it('assigns a task to a member, tells who assigned it, and refuses a non-member', async () => {
      const mark = await outboxMark();
      const id = await added(A, 'item_add', { content: 'Assigned to B', project_id: shared, responsible_uid: B });
      expect(await itemRow(id)).toMatchObject({ responsible_uid: B, assigned_by_uid: A });
      expect(await eventsSince(mark)).toEqual([
        { subject: SyncEvents.itemAssigned.name, payload: { itemId: id, itemContent: 'Assigned to B', projectId: shared, assignedBy: A, responsibleUid: B, creatorId: A } },
      ]);

      const before = await written();
      expect((await one(A, 'item_add', { content: 'To D', project_id: shared, responsible_uid: D })).status).toEqual(refusal('INVALID_ARGUMENT_VALUE'));
      expect((await one(A, 'item_update', { id, responsible_uid: D })).status).toEqual(refusal('INVALID_ARGUMENT_VALUE'));
      // B is a member of the shared project, not of A's private one.
      expect((await one(A, 'item_add', { content: 'To B', project_id: privateOfA, responsible_uid: B })).status).toEqual(refusal('INVALID_ARGUMENT_VALUE'));
      expect(await written()).toEqual(before);
    });

    it('reassigns (by another member too), answers the same assignment with no event, and unassigns with null', async () => {
      const id = await added(A, 'item_add', { content: 'Passed around', project_id: shared, responsible_uid: B });
      let mark = await outboxMark();
      expect((await one(B, 'item_update', { id, responsible_uid: C })).status).toBe('ok');
      expect(await itemRow(id)).toMatchObject({ responsible_uid: C, assigned_by_uid: B });
      expect(await eventsSince(mark)).toEqual([
        { subject: SyncEvents.itemAssigned.name, payload: { itemId: id, itemContent: 'Passed around', projectId: shared, assignedBy: B, responsibleUid: C, creatorId: A } },
      ]);
      mark = await outboxMark();
      expect((await one(A, 'item_update', { id, responsible_uid: C })).status).toBe('ok');
      expect(await itemRow(id)).toMatchObject({ responsible_uid: C, assigned_by_uid: B });
      expect((await one(A, 'item_update', { id, responsible_uid: null })).status).toBe('ok');
      expect(await itemRow(id)).toMatchObject({ responsible_uid: null, assigned_by_uid: null });
      expect(await eventsSince(mark)).toEqual([]);
    });

    it('unassigns a task (and its subtasks) moved to a project its responsible user is not in, and keeps it otherwise', async () => {
      const parent = await added(A, 'item_add', { content: 'Moving parent', project_id: shared, responsible_uid: B });
      const child = await added(A, 'item_add', { content: 'Moving child', parent_id: parent, responsible_uid: C });
      const mine = await added(A, 'item_add', { content: 'Mine', parent_id: parent, responsible_uid: A });
      expect((await one(A, 'item_move', { id: parent, section_id: section })).status).toBe('ok');
      expect((await itemRow(child)).responsible_uid).toBe(C);
      expect((await one(A, 'item_move', { id: parent, project_id: privateOfA })).status).toBe('ok');
      expect(await itemRow(parent)).toMatchObject({ project_id: privateOfA, responsible_uid: null, assigned_by_uid: null });
      expect(await itemRow(child)).toMatchObject({ project_id: privateOfA, responsible_uid: null });
      expect(await itemRow(mine)).toMatchObject({ project_id: privateOfA, responsible_uid: A });
    });

    it('unassigns the tasks of a section moved to a project their responsible users are not in', async () => {
      const moving = await added(A, 'section_add', { name: 'Moving', project_id: shared });
      const id = await added(A, 'item_add', { content: 'In the moving section', section_id: moving, responsible_uid: B });
      expect((await one(A, 'section_move', { id: moving, project_id: privateOfA })).status).toBe('ok');
      expect(await itemRow(id)).toMatchObject({ project_id: privateOfA, responsible_uid: null });
    });
  });

  describe('completion events', () => {
    it('completing an assigned task emits one event; an unassigned one none', async () => {
      const assigned = await added(A, 'item_add', { content: 'Assigned chore', project_id: shared, responsible_uid: B });
      const plain = await added(A, 'item_add', { content: 'Plain chore', project_id: shared });
      let mark = await outboxMark();
      expect((await one(C, 'item_complete', { id: plain })).status).toBe('ok');
      expect(await eventsSince(mark)).toEqual([]);
      expect((await one(C, 'item_complete', { id: assigned })).status).toBe('ok');
      expect(await eventsSince(mark)).toEqual([
        {
          subject: SyncEvents.itemCompletionChanged.name,
          payload: { itemId: assigned, itemContent: 'Assigned chore', projectId: shared, completed: true, actorId: C, assignedBy: A, responsibleUid: B },
        },
      ]);
      mark = await outboxMark();
      expect((await one(B, 'item_uncomplete', { id: assigned })).status).toBe('ok');
      expect(await eventsSince(mark)).toEqual([{ subject: SyncEvents.itemCompletionChanged.name, payload: expect.objectContaining({ itemId: assigned, completed: false, actorId: B }) }]);
    });

    it('a task completed with its subtasks: one event per task that has a responsible user, none for one already done', async () => {
      const parent = await added(A, 'item_add', { content: 'Parent', project_id: shared, responsible_uid: B });
      const assignedChild = await added(A, 'item_add', { content: 'Assigned child', parent_id: parent, responsible_uid: C });
      await added(A, 'item_add', { content: 'Plain child', parent_id: parent });
      const doneChild = await added(A, 'item_add', { content: 'Done child', parent_id: parent, responsible_uid: C });
      expect((await one(C, 'item_complete', { id: doneChild })).status).toBe('ok');
      const mark = await outboxMark();
      expect((await one(C, 'item_complete', { id: parent })).status).toBe('ok');
      const events = await eventsSince(mark);
      expect(events.map((event) => event.subject)).toEqual([SyncEvents.itemCompletionChanged.name, SyncEvents.itemCompletionChanged.name]);
      expect(events.map((event) => event.payload['itemId']).sort()).toEqual([parent, assignedChild].sort());
    });

    it('completes several ids in one command: an event for each assigned one, and none for one refused', async () => {
      const first = await added(A, 'item_add', { content: 'First', project_id: shared, responsible_uid: B });
      const second = await added(A, 'item_add', { content: 'Second', project_id: shared, responsible_uid: C });
      const mark = await outboxMark();
      const { status } = await one(B, 'item_complete', { ids: [first, '9999999999', second] });
      expect(status).toEqual({ [first]: 'ok', '9999999999': refusal('ITEM_NOT_FOUND'), [second]: 'ok' });
      expect((await eventsSince(mark)).map((event) => event.payload['itemId'])).toEqual([first, second]);
    });

    it('a recurring assigned task closed: the occurrence done is told too', async () => {
      const id = await added(A, 'item_add', { content: 'Every day', project_id: shared, responsible_uid: B, due: { string: 'every day' } });
      const mark = await outboxMark();
      expect((await one(B, 'item_close', { id })).status).toBe('ok');
      expect(await itemRow(id)).toMatchObject({ checked: false });
      expect(await eventsSince(mark)).toEqual([{ subject: SyncEvents.itemCompletionChanged.name, payload: expect.objectContaining({ itemId: id, completed: true, actorId: B }) }]);
    });
  });

  describe('comment events', () => {
    it('a comment in a shared project tells its members (and whom the author named)', async () => {
      let mark = await outboxMark();
      const note = await added(B, 'note_add', { item_id: task, content: 'Look at this' });
      expect(await eventsSince(mark)).toEqual([
        { subject: SyncEvents.noteAdded.name, payload: { noteId: note, noteContent: 'Look at this', itemId: task, projectId: shared, actorId: B, memberIds: [A, B, C], uidsToNotify: null } },
      ]);
      mark = await outboxMark();
      const projectNote = await added(C, 'note_add', { project_id: shared, content: 'For A', uids_to_notify: [Number(A)] });
      expect(await eventsSince(mark)).toEqual([
        { subject: SyncEvents.noteAdded.name, payload: { noteId: projectNote, noteContent: 'For A', itemId: null, projectId: shared, actorId: C, memberIds: [A, B, C], uidsToNotify: [A] } },
      ]);
    });

    it('a comment in a project of one member tells no one; bad uids_to_notify are refused', async () => {
      const privateTask = await added(A, 'item_add', { content: 'Alone', project_id: privateOfA });
      const mark = await outboxMark();
      await added(A, 'note_add', { item_id: privateTask, content: 'Just me' });
      expect(await eventsSince(mark)).toEqual([]);
      expect((await one(B, 'note_add', { item_id: task, content: 'x', uids_to_notify: ['someone'] })).status).toEqual(refusal('INVALID_ARGUMENT_VALUE'));
      expect(await eventsSince(mark)).toEqual([]);
    });
  });
});
