import { commandHandlers } from '../testing/command-handlers.harness';
import { PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { ServiceClient } from '@doable/shared-transport';
import type { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { failFirstCommit, givePlan } from '@doable/sync-domain/testing';
import { CommandExecutor } from '../src/command-executor';
import type { CommandContext, CommandHandler, CommandOutcome } from '../src/command-handler';
import type { SyncCommand } from '../src/sync-request';
import { ownObjects } from '@doable/contracts-sync';

const USER_ID = '7001';
const principal: Principal = { userId: USER_ID, scopes: ['data:read_write', 'data:delete'], appId: null, tokenKind: 'personal' };

/** Writes a project, then fails the way its name says: the savepoint must undo the write. */
class WriteThenFailCommand implements CommandHandler {
  readonly policy = ownObjects();
  constructor(
    readonly type: string,
    private readonly failure: () => Error,
  ) {}
  async run(context: CommandContext): Promise<never> {
    await context.tx.manager.query(`INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, $2, 1, $3)`, [context.userId, this.type, context.version]);
    throw this.failure();
  }
}

/**
 * A command with remote work (like the credential and notification commands): prepare() stands
 * for the call to another service and records whether a transaction was open when it ran.
 */
class RemoteCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_remote';
  readonly calls: Array<{ args: Record<string, unknown>; inTransaction: boolean }> = [];

  constructor(private readonly dataSource: () => DataSource) {}

  async prepare(_principal: Principal, args: Record<string, unknown>): Promise<string> {
    const [{ open }] = await this.dataSource().query<Array<{ open: boolean }>>(`SELECT count(*) > 0 AS open FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
    this.calls.push({ args, inTransaction: open });
    if (args['fail'] === 'refuse') throw new DomainError('AUTHENTICATION_ERROR', 'refused remotely', { argument: 'current_password' });
    if (args['fail'] === 'unavailable') throw new DomainError('SERVICE_UNAVAILABLE');
    return `prepared:${String(args['label'])}`;
  }

  async run(context: CommandContext, _args: Record<string, unknown>, prepared?: unknown): Promise<{ createdId?: string }> {
    await context.tx.manager.query(`INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, $2, 1, $3)`, [context.userId, String(prepared), context.version]);
    context.touch();
    return {};
  }
}

/** Writes a project, then sends a statement PostgreSQL refuses: the transaction is aborted until the rollback. */
class WriteThenBreakStatementCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_sql_error';
  async run(context: CommandContext): Promise<never> {
    await context.tx.manager.query(`INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, $2, 1, $3)`, [context.userId, this.type, context.version]);
    await context.tx.manager.query(`SELECT 1 / 0`);
    throw new Error('unreachable');
  }
}

/** Writes a row that breaks a deferred constraint: the statement succeeds, COMMIT fails. */
class BreakCommitCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_break_commit';
  async run(context: CommandContext): Promise<object> {
    await context.tx.manager.query(`INSERT INTO sync.commit_check (id, token) VALUES (1, 'same'), (2, 'same')`);
    return {};
  }
}

/** Writes a row whose deferred check fails the first COMMIT as a deadlock victim would (SQLSTATE 40P01). */
class DeadlockOnceCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_deadlock_once';
  async run(context: CommandContext): Promise<object> {
    await context.tx.manager.query(`INSERT INTO sync.deadlock_once (note) VALUES ('x')`);
    return {};
  }
}

/**
 * A command over several objects: writes a project per entry, each on its own; an entry named
 * `refuse` is refused (a DomainError), one named `crash` throws something else.
 */
class EachObjectCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_each_object';
  async run(context: CommandContext, args: Record<string, unknown>): Promise<CommandOutcome> {
    const names = args['names'] as string[];
    const statuses = await context.eachObject(
      names.map((name) => [name, name] as const),
      async (name) => {
        await context.tx.manager.query(`INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, $2, 1, $3)`, [context.userId, `each:${name}`, context.version]);
        context.touch('1');
        if (name.startsWith('refuse')) throw new DomainError('PROJECT_NOT_FOUND', 'refused on purpose', { argument: 'names' });
        if (name.startsWith('crash')) throw new Error('unexpected on purpose');
      },
    );
    return { perObject: { statuses, answer: 'when-refused' } };
  }
}

/** Holds its transaction (and the user's row) for a while, as a heavy batch does. */
class SlowCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_slow';
  async run(context: CommandContext): Promise<object> {
    await context.tx.manager.query(`SELECT pg_sleep(0.25)`);
    return {};
  }
}

/** Creates a project the user is a member of, mapped from the command's temp id. */
class MakeProjectCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_make_project';
  async run(context: CommandContext): Promise<CommandOutcome> {
    const [{ id }] = await context.tx.manager.query<Array<{ id: string }>>(
      `INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, 'made', 1, $2) RETURNING id::text`,
      [context.userId, context.version],
    );
    await context.tx.manager.query(`INSERT INTO sync.project_members (project_id, user_id) VALUES ($1, $2)`, [id, context.userId]);
    return { createdId: id };
  }
}

/** Remembers the user settings and version each run saw. */
class CaptureContextCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_capture_context';
  readonly seen: Array<{ timezone: string; version: string }> = [];
  run(context: CommandContext): Promise<object> {
    this.seen.push({ timezone: context.user.timezone, version: context.version });
    return Promise.resolve({});
  }
}

function itemAdd(content: string, tempId: string = randomUUID(), args: Record<string, unknown> = {}): SyncCommand {
  return { type: 'item_add', uuid: randomUUID(), temp_id: tempId, args: { content, ...args } };
}

describe('CommandExecutor: one transaction per request, one savepoint per command (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;
  let deadlock: Awaited<ReturnType<typeof failFirstCommit>>;
  const capture = new CaptureContextCommand();
  const remote = new RemoteCommand(() => dataSource);

  const contents = async () =>
    (await dataSource.query<Array<{ content: string }>>(`SELECT content FROM sync.items WHERE user_id = $1 ORDER BY id`, [USER_ID])).map((row) => row.content);
  const highWater = async () => (await dataSource.query<Array<{ high_water: string }>>(`SELECT high_water::text FROM sync.users WHERE id = $1`, [USER_ID]))[0].high_water;
  const loggedUuids = async () => (await dataSource.query<Array<{ uuid: string }>>(`SELECT uuid FROM sync.command_log WHERE user_id = $1`, [USER_ID])).map((row) => row.uuid);

  beforeAll(async () => {
    database = await createTestDatabase('command_executor');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    await dataSource.query(`CREATE TABLE sync.commit_check (id int PRIMARY KEY, token text, CONSTRAINT commit_check_token UNIQUE (token) DEFERRABLE INITIALLY DEFERRED)`);
    await dataSource.query(`CREATE TABLE sync.deadlock_once (note text)`);
    deadlock = await failFirstCommit(dataSource, { name: 'deadlock_once', table: 'sync.deadlock_once', sqlstate: '40P01' });
    const profiles = new UserProfileRepository();
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: USER_ID, email: 'executor@test', fullName: 'Executor', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    // More tasks in the Inbox than the built-in free plan holds.
    await givePlan(dataSource.manager, USER_ID);
    const logger = createLogger('test', 'silent');
    const relay = new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger);
    const handlers = [
      // The public commands (item_add, user_update, ...) as the service wires them, and this spec's own.
      ...(await commandHandlers({ services: { request: () => Promise.reject(new Error('no remote calls here')) } as unknown as ServiceClient })),
      new WriteThenFailCommand('test_refused', () => new DomainError('INVALID_ARGUMENT_VALUE', 'refused on purpose', { argument: 'x' })),
      new WriteThenFailCommand('test_crash', () => new Error('unexpected on purpose')),
      new WriteThenBreakStatementCommand(),
      new BreakCommitCommand(),
      new DeadlockOnceCommand(),
      capture,
      remote,
      new EachObjectCommand(),
      new MakeProjectCommand(),
      new SlowCommand(),
    ];
    executor = new CommandExecutor(new Database(dataSource, 'sync', relay), profiles, handlers, logger, [], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('commits the commands around a refused, a crashing and a broken-statement one, under one version, and remembers only the refusal', async () => {
    const before = await highWater();
    const first = itemAdd('first', 'tmp-first');
    const refused: SyncCommand = { type: 'test_refused', uuid: randomUUID(), args: {} };
    const crash: SyncCommand = { type: 'test_crash', uuid: randomUUID(), args: {} };
    const sqlError: SyncCommand = { type: 'test_sql_error', uuid: randomUUID(), args: {} };
    const subtask = itemAdd('subtask of first', 'tmp-sub', { parent_id: 'tmp-first' });

    const results = await executor.run(principal, [first, refused, crash, sqlError, subtask]);

    expect(results.syncStatus[first.uuid]).toBe('ok');
    expect(results.syncStatus[refused.uuid]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'x' } });
    expect(results.syncStatus[crash.uuid]).toMatchObject({ error_tag: 'INTERNAL_SERVER_ERROR' });
    expect(results.syncStatus[sqlError.uuid]).toMatchObject({ error_tag: 'INTERNAL_SERVER_ERROR' });
    expect(results.syncStatus[subtask.uuid]).toBe('ok');
    expect(await contents()).toEqual(['first', 'subtask of first']);
    const projects = await dataSource.query<unknown[]>(`SELECT 1 FROM sync.projects WHERE name LIKE 'test_%'`);
    expect(projects).toHaveLength(0);
    const [parent, child] = await dataSource.query<Array<{ id: string; parent_id: string | null; version: string }>>(
      `SELECT id::text, parent_id::text, version::text FROM sync.items WHERE user_id = $1 ORDER BY id`,
      [USER_ID],
    );
    expect(results.tempIdMapping).toEqual({ 'tmp-first': parent.id, 'tmp-sub': child.id });
    expect(child.parent_id).toBe(parent.id);
    expect(child.version).toBe(parent.version);
    expect(BigInt(await highWater())).toBe(BigInt(parent.version));
    expect(BigInt(parent.version)).toBeGreaterThan(BigInt(before));
    expect((await loggedUuids()).sort()).toEqual([first.uuid, refused.uuid, subtask.uuid].sort());

    // The same request again: remembered outcomes replayed, the crash (not remembered) run again.
    const again = await executor.run(principal, [first, refused, crash, sqlError, subtask]);
    expect(again.syncStatus).toEqual(results.syncStatus);
    expect(again.tempIdMapping).toEqual(results.tempIdMapping);
    expect(await contents()).toEqual(['first', 'subtask of first']);

    // A later request resolves the earlier request's temp ids.
    const later = itemAdd('second subtask', 'tmp-later', { parent_id: 'tmp-first' });
    expect((await executor.run(principal, [later])).syncStatus[later.uuid]).toBe('ok');
  });

  it('reports no command ok when the commit fails, and remembers nothing of the request', async () => {
    const items = await contents();
    const water = await highWater();
    const add = itemAdd('never committed');
    const refused: SyncCommand = { type: 'test_refused', uuid: randomUUID(), args: {} };
    const breaker: SyncCommand = { type: 'test_break_commit', uuid: randomUUID(), args: {} };

    const results = await executor.run(principal, [add, refused, breaker]);

    for (const command of [add, refused, breaker]) expect(results.syncStatus[command.uuid]).toMatchObject({ error_tag: 'INTERNAL_SERVER_ERROR' });
    expect(results.tempIdMapping).toEqual({});
    expect(await contents()).toEqual(items);
    expect(await highWater()).toBe(water);
    const logged = await loggedUuids();
    for (const command of [add, refused, breaker]) expect(logged).not.toContain(command.uuid);
  });

  it('runs a request again when PostgreSQL aborts its transaction as a deadlock victim', async () => {
    const add = itemAdd('after a deadlock');
    const victim: SyncCommand = { type: 'test_deadlock_once', uuid: randomUUID(), args: {} };
    const results = await executor.run(principal, [add, victim]);
    expect(results.syncStatus).toEqual({ [add.uuid]: 'ok', [victim.uuid]: 'ok' });
    expect((await contents()).filter((content) => content === 'after a deadlock')).toHaveLength(1);
    expect(await dataSource.query(`SELECT note FROM sync.deadlock_once`)).toEqual([{ note: 'x' }]);
    expect(await deadlock.attempts()).toBe(2);
  });

  it('shows the commands after a user_update the settings it wrote', async () => {
    const update: SyncCommand = { type: 'user_update', uuid: randomUUID(), args: { timezone: 'Asia/Tokyo' } };
    const before: SyncCommand = { type: 'test_capture_context', uuid: randomUUID(), args: {} };
    const after: SyncCommand = { type: 'test_capture_context', uuid: randomUUID(), args: {} };
    const results = await executor.run(principal, [before, update, after]);
    expect(Object.values(results.syncStatus)).toEqual(['ok', 'ok', 'ok']);
    expect(capture.seen.map((seen) => seen.timezone)).toEqual(['UTC', 'Asia/Tokyo']);
    expect(BigInt(capture.seen[1].version)).toBeGreaterThan(BigInt(capture.seen[0].version));
    expect(BigInt(await highWater())).toBe(BigInt(capture.seen[1].version));
    await executor.run(principal, [{ type: 'user_update', uuid: randomUUID(), args: { timezone: 'UTC' } }]);
  });

  it('runs each command of two racing copies of one request once', async () => {
    const batch = [itemAdd('raced 1'), itemAdd('raced 2'), itemAdd('raced 3')];
    const [one, two] = await Promise.all([executor.run(principal, batch), executor.run(principal, batch)]);
    expect(one).toEqual(two);
    for (const command of batch) expect(one.syncStatus[command.uuid]).toBe('ok');
    expect((await contents()).filter((content) => content.startsWith('raced'))).toEqual(['raced 1', 'raced 2', 'raced 3']);
  });

  it('replays a uuid repeated inside one request instead of running it twice', async () => {
    const add = itemAdd('once');
    const results = await executor.run(principal, [add, add]);
    expect(results.syncStatus[add.uuid]).toBe('ok');
    expect((await contents()).filter((content) => content === 'once')).toHaveLength(1);
  });

  it('refuses a command the token may not run before anything runs, without remembering it', async () => {
    const add = itemAdd('not allowed');
    const results = await executor.run({ ...principal, scopes: ['data:read'] }, [add]);
    expect(results.syncStatus[add.uuid]).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await loggedUuids()).not.toContain(add.uuid);
  });

  describe('the optimistic pass: no savepoints until a command fails', () => {
    /** Every statement sent to PostgreSQL while `work` runs, one per round trip. */
    const statementsOf = async (work: () => Promise<unknown>): Promise<string[]> => {
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        await work();
        return spy.mock.calls.map((call) => String(call[0]).trim());
      } finally {
        spy.mockRestore();
      }
    };

    it('writes a run of item_adds that all succeed in one INSERT, with no savepoint', async () => {
      const adds = Array.from({ length: 10 }, (_, n) => itemAdd(`budget ${n}`, `budget-${n}`));
      let results: Awaited<ReturnType<CommandExecutor['run']>> | undefined;
      const statements = await statementsOf(async () => (results = await executor.run(principal, adds)));
      expect(Object.values(results!.syncStatus).every((status) => status === 'ok')).toBe(true);
      expect(statements.filter((sql) => sql.includes('SAVEPOINT'))).toEqual([]);
      expect(statements.filter((sql) => sql.includes('INSERT INTO sync.items'))).toHaveLength(1);
      expect(statements.filter((sql) => sql.includes('.outbox'))).toHaveLength(2);
      // START TRANSACTION, the user's lock, the log's read with the version; the plan's check (the
      // project's open tasks, its owner's plan), the one INSERT and its tasks' object events (one
      // v2 event, one outbox row); the outcomes with the temp ids and their trim (one statement),
      // the high-water marks and the one usersChanged event naming whom they raised, COMMIT.
      expect(statements).toHaveLength(3 + 2 + 2 + 4);
      const made = await dataSource.query<Array<{ id: string; content: string }>>(`SELECT id::text, content FROM sync.items WHERE content LIKE 'budget %' ORDER BY id`);
      expect(made.map((row) => row.content)).toEqual(adds.map((add) => add.args['content']));
      expect(results!.tempIdMapping).toEqual(Object.fromEntries(made.map((row, n) => [`budget-${n}`, row.id])));
    });

    it('orders the tasks written together as one after another would, and runs alone those that depend on the others', async () => {
      const [{ inbox }] = await dataSource.query<Array<{ inbox: string }>>(`SELECT inbox_project_id::text AS inbox FROM sync.users WHERE id = $1`, [USER_ID]);
      const [{ last }] = await dataSource.query<Array<{ last: number }>>(
        `SELECT COALESCE(max(child_order), 0) AS last FROM sync.items WHERE project_id = $1 AND parent_id IS NULL AND NOT is_deleted AND NOT in_history`,
        [inbox],
      );
      const project: SyncCommand = { type: 'test_make_project', uuid: randomUUID(), temp_id: 'tmp-order-project', args: {} };
      const request = [
        project,
        itemAdd('order a', 'tmp-order-a', { labels: ['one', 'a "quoted", {braced} \\ label'], priority: 3, description: 'with "quotes", {braces}, NULL and \\' }),
        itemAdd('order b'),
        itemAdd('order c', randomUUID(), { project_id: 'tmp-order-project' }),
        itemAdd('order d', randomUUID(), { child_order: last + 100 }),
        itemAdd('order e'),
        itemAdd('order f', randomUUID(), { project_id: 'tmp-order-project' }),
        itemAdd('order g', randomUUID(), { parent_id: 'tmp-order-a' }),
      ];
      let results: Awaited<ReturnType<CommandExecutor['run']>> | undefined;
      const statements = await statementsOf(async () => (results = await executor.run(principal, request)));
      expect(Object.values(results!.syncStatus)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
      // All in the optimistic pass: a, b and c in one INSERT, d alone (its child_order), e and f
      // in one INSERT, g alone (its parent).
      expect(statements.filter((sql) => sql.includes('SAVEPOINT') || sql === 'ROLLBACK')).toEqual([]);
      expect(statements.filter((sql) => sql.includes('INSERT INTO sync.items')).map((sql) => (sql.startsWith('WITH input') ? 'group' : 'one'))).toEqual([
        'group',
        'one',
        'group',
        'one',
      ]);
      const rows = await dataSource.query<Array<{ content: string; project_id: string; child_order: number; labels: string[]; priority: number; parent: string | null }>>(
        `SELECT item.content, item.project_id::text, item.child_order, item.labels, item.priority, parent.content AS parent
           FROM sync.items item LEFT JOIN sync.items parent ON parent.id = item.parent_id WHERE item.content LIKE 'order %' ORDER BY item.id`,
      );
      const theProject = results!.tempIdMapping['tmp-order-project'];
      expect(rows.map((row) => [row.content, row.project_id, row.child_order, row.parent])).toEqual([
        ['order a', inbox, last + 1, null],
        ['order b', inbox, last + 2, null],
        ['order c', theProject, 1, null],
        ['order d', inbox, last + 100, null],
        ['order e', inbox, last + 101, null],
        ['order f', theProject, 2, null],
        ['order g', inbox, 1, 'order a'],
      ]);
      expect(rows[0]).toMatchObject({ labels: ['one', 'a "quoted", {braced} \\ label'], priority: 3 });
      const [{ description }] = await dataSource.query<Array<{ description: string }>>(`SELECT description FROM sync.items WHERE content = 'order a'`);
      expect(description).toBe('with "quotes", {braces}, NULL and \\');
    });

    it('resolves a temp id a task of the group reuses to that task, not to what an earlier request mapped it to', async () => {
      const earlier: SyncCommand = { type: 'test_make_project', uuid: randomUUID(), temp_id: 'tmp-reused', args: {} };
      expect((await executor.run(principal, [earlier])).syncStatus[earlier.uuid]).toBe('ok');
      const reusing = itemAdd('reuses the temp id', 'tmp-reused');
      const into = itemAdd('into the temp id', randomUUID(), { project_id: 'tmp-reused' });
      const results = await executor.run(principal, [reusing, into]);
      expect(results.syncStatus[reusing.uuid]).toBe('ok');
      // One after another, `tmp-reused` names the task just added: not a project.
      expect(results.syncStatus[into.uuid]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    });

    it('runs the request again with savepoints when a command fails, and commits only that run', async () => {
      capture.seen.length = 0;
      const before = itemAdd('before the refusal', 'tmp-before-refusal');
      const seen: SyncCommand = { type: 'test_capture_context', uuid: randomUUID(), args: {} };
      const refused: SyncCommand = { type: 'test_refused', uuid: randomUUID(), args: {} };
      const after = itemAdd('after the refusal', 'tmp-after-refusal', { parent_id: 'tmp-before-refusal' });
      let results: Awaited<ReturnType<CommandExecutor['run']>> | undefined;

      const statements = await statementsOf(async () => (results = await executor.run(principal, [before, seen, refused, after])));

      expect(Object.values(results!.syncStatus)).toEqual(['ok', 'ok', expect.objectContaining({ error_tag: 'INVALID_ARGUMENT_VALUE' }), 'ok']);
      // The optimistic pass ran up to the refusal and was rolled back whole; the rerun ran all four.
      expect(statements.filter((sql) => sql === 'ROLLBACK')).toHaveLength(1);
      expect(statements.filter((sql) => sql === 'ROLLBACK TO SAVEPOINT sync_command')).toHaveLength(1);
      expect(capture.seen).toHaveLength(2);
      const version = capture.seen[1].version;
      expect(BigInt(version)).toBeGreaterThan(BigInt(capture.seen[0].version));
      // What committed is the rerun's alone: each task once, under its version, with the temp ids it made.
      const rows = await dataSource.query<Array<{ id: string; content: string; parent_id: string | null; version: string }>>(
        `SELECT id::text, content, parent_id::text, version::text FROM sync.items WHERE user_id = $1 AND content LIKE '% the refusal' ORDER BY id`,
        [USER_ID],
      );
      expect(rows.map((row) => [row.content, row.version])).toEqual([
        ['before the refusal', version],
        ['after the refusal', version],
      ]);
      expect(rows[1].parent_id).toBe(rows[0].id);
      expect(results!.tempIdMapping).toEqual({ 'tmp-before-refusal': rows[0].id, 'tmp-after-refusal': rows[1].id });
      const stored = await dataSource.query<Array<{ temp_id: string; object_id: string }>>(
        `SELECT temp_id, object_id::text FROM sync.temp_ids WHERE user_id = $1 AND temp_id LIKE '%-refusal' ORDER BY temp_id`,
        [USER_ID],
      );
      expect(stored).toEqual([
        { temp_id: 'tmp-after-refusal', object_id: rows[1].id },
        { temp_id: 'tmp-before-refusal', object_id: rows[0].id },
      ]);
      expect(BigInt(await highWater())).toBe(BigInt(version));
      expect(await loggedUuids()).toEqual(expect.arrayContaining([before.uuid, seen.uuid, refused.uuid, after.uuid]));
      expect(await dataSource.query(`SELECT 1 FROM sync.projects WHERE name = 'test_refused'`)).toHaveLength(0);
    });
  });

  it("adds no task to a project the user cannot see, and answers PROJECT_NOT_FOUND before the task's other refusals", async () => {
    const profiles = new UserProfileRepository();
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: '7002', email: 'other@test', fullName: 'Other', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    const [{ theirs }] = await dataSource.query<Array<{ theirs: string }>>(`SELECT inbox_project_id::text AS theirs FROM sync.users WHERE id = 7002`);
    const foreign = itemAdd('in their inbox', randomUUID(), { project_id: theirs });
    const foreignAndAssigned = itemAdd('in their inbox, assigned', randomUUID(), { project_id: theirs, responsible_uid: '7002' });
    const foreignAndBadDue = itemAdd('in their inbox, bad due', randomUUID(), { project_id: theirs, due: { date: 'not a date' } });
    const assigned = itemAdd('mine, assigned to them', randomUUID(), { responsible_uid: '7002' });

    const results = await executor.run(principal, [foreign, foreignAndAssigned, foreignAndBadDue, assigned]);

    expect(results.syncStatus[foreign.uuid]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    expect(results.syncStatus[foreignAndAssigned.uuid]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    expect(results.syncStatus[foreignAndBadDue.uuid]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    expect(results.syncStatus[assigned.uuid]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'responsible_uid' } });
    expect(await dataSource.query(`SELECT 1 FROM sync.items WHERE project_id = $1`, [theirs])).toHaveLength(0);
  });

  describe('commands over several objects (spec §7.2)', () => {
    const itemIds = async (contentPrefix: string) =>
      (await dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.items WHERE user_id = $1 AND content LIKE $2 ORDER BY id`, [USER_ID, `${contentPrefix}%`])).map((row) => row.id);
    const checked = async (ids: readonly string[]) =>
      (await dataSource.query<Array<{ checked: boolean }>>(`SELECT checked FROM sync.items WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids])).map((row) => row.checked);
    const eachProjects = async () => (await dataSource.query<Array<{ name: string }>>(`SELECT name FROM sync.projects WHERE name LIKE 'each:%' ORDER BY id`)).map((row) => row.name);

    it('does each of the legacy `ids` on its own, answers each id, and replays that answer for the uuid', async () => {
      await executor.run(principal, [itemAdd('per-id a'), itemAdd('per-id b')]);
      const [a, b] = await itemIds('per-id');
      const complete: SyncCommand = { type: 'item_complete', uuid: randomUUID(), args: { ids: [a, '9999999999', b, 'never-made-temp-id'] } };

      const results = await executor.run(principal, [complete]);

      expect(results.syncStatus[complete.uuid]).toEqual({
        [a]: 'ok',
        '9999999999': expect.objectContaining({ error_tag: 'ITEM_NOT_FOUND', http_code: 404 }),
        [b]: 'ok',
        'never-made-temp-id': expect.objectContaining({ error_tag: 'INVALID_TEMPID' }),
      });
      expect(await checked([a, b])).toEqual([true, true]);
      const again = await executor.run(principal, [complete]);
      expect(again.syncStatus).toEqual(results.syncStatus);

      // Every id ok still answers the map for the `ids` form; the single `id` form answers ok.
      const reopen: SyncCommand = { type: 'item_uncomplete', uuid: randomUUID(), args: { ids: [a, Number(b)] } };
      const single: SyncCommand = { type: 'item_complete', uuid: randomUUID(), args: { id: a } };
      const missing: SyncCommand = { type: 'item_complete', uuid: randomUUID(), args: { id: '9999999999' } };
      const both = await executor.run(principal, [reopen, single, missing]);
      expect(both.syncStatus[reopen.uuid]).toEqual({ [a]: 'ok', [b]: 'ok' });
      expect(both.syncStatus[single.uuid]).toBe('ok');
      expect(both.syncStatus[missing.uuid]).toMatchObject({ error_tag: 'ITEM_NOT_FOUND' });
      expect(await checked([a, b])).toEqual([true, false]);
    });

    it('answers an id map ok when every id succeeded, and per id (the good ones applied) when one was refused', async () => {
      await executor.run(principal, [itemAdd('day-order a'), itemAdd('day-order b')]);
      const [a, b] = await itemIds('day-order');
      const allGood: SyncCommand = { type: 'item_update_day_orders', uuid: randomUUID(), args: { ids_to_orders: { [a]: 3, [b]: 4 } } };
      const oneBad: SyncCommand = { type: 'item_update_day_orders', uuid: randomUUID(), args: { ids_to_orders: { [a]: 7, '9999999999': 8 } } };
      const results = await executor.run(principal, [allGood, oneBad]);
      expect(results.syncStatus[allGood.uuid]).toBe('ok');
      expect(results.syncStatus[oneBad.uuid]).toEqual({ [a]: 'ok', '9999999999': expect.objectContaining({ error_tag: 'ITEM_NOT_FOUND' }) });
      const orders = await dataSource.query<Array<{ day_order: number }>>(`SELECT day_order FROM sync.items WHERE id = ANY($1::bigint[]) ORDER BY id`, [[a, b]]);
      expect(orders.map((row) => row.day_order)).toEqual([7, 4]);
    });

    it("undoes a refused object's writes alone, and the whole command when an object crashes", async () => {
      const mixed: SyncCommand = { type: 'test_each_object', uuid: randomUUID(), args: { names: ['one', 'refuse-two', 'three'] } };
      const crashing: SyncCommand = { type: 'test_each_object', uuid: randomUUID(), args: { names: ['four', 'crash-five'] } };
      const after = itemAdd('after the crash');
      const results = await executor.run(principal, [mixed, crashing, after]);
      expect(results.syncStatus[mixed.uuid]).toEqual({ one: 'ok', 'refuse-two': expect.objectContaining({ error_tag: 'PROJECT_NOT_FOUND' }), three: 'ok' });
      expect(results.syncStatus[crashing.uuid]).toMatchObject({ error_tag: 'INTERNAL_SERVER_ERROR' });
      expect(results.syncStatus[after.uuid]).toBe('ok');
      expect(await eachProjects()).toEqual(['each:one', 'each:three']);
      expect(await loggedUuids()).toContain(mixed.uuid);
      expect(await loggedUuids()).not.toContain(crashing.uuid);
    });
  });

  it('keeps the last 500 temp ids per user for later requests, and forgets older ones', async () => {
    const adds = Array.from({ length: 501 }, (_, n) => itemAdd(`cut-off ${n}`, `cut-${n}`));
    const made = await executor.run(principal, adds);
    expect(Object.values(made.syncStatus).every((status) => status === 'ok')).toBe(true);
    const [{ kept }] = await dataSource.query<Array<{ kept: number }>>(`SELECT count(*)::int AS kept FROM sync.temp_ids WHERE user_id = $1`, [USER_ID]);
    expect(kept).toBe(500);

    const forgotten = itemAdd('under the oldest', randomUUID(), { parent_id: 'cut-0' });
    const remembered = itemAdd('under the second oldest', randomUUID(), { parent_id: 'cut-1' });
    const newest = itemAdd('under the newest', randomUUID(), { parent_id: 'cut-500' });
    const later = await executor.run(principal, [forgotten, remembered, newest]);
    expect(later.syncStatus[forgotten.uuid]).toMatchObject({ error_tag: 'INVALID_TEMPID' });
    expect(later.syncStatus[remembered.uuid]).toBe('ok');
    expect(later.syncStatus[newest.uuid]).toBe('ok');

    // A temp id written again moves to the newest and is kept (the trim runs in the statement
    // that writes it); the oldest other one goes: cut-3, once later's two made cut-1 and cut-2 go.
    const tempIds = async () => new Map((await dataSource.query<Array<{ temp_id: string; object_id: string }>>(`SELECT temp_id, object_id::text FROM sync.temp_ids WHERE user_id = $1`, [USER_ID])).map((row) => [row.temp_id, row.object_id]));
    const reused = itemAdd('cut-10 again', 'cut-10');
    const again = await executor.run(principal, [reused, itemAdd('one more', 'cut-new')]);
    const now = await tempIds();
    expect(now.size).toBe(500);
    expect(now.get('cut-10')).toBe(again.tempIdMapping['cut-10']);
    expect(now.has('cut-new')).toBe(true);
    expect(['cut-2', 'cut-3', 'cut-4'].map((tempId) => now.has(tempId))).toEqual([false, false, true]);
  });

  it("one user's burst of slow requests takes one connection, not the pool: another user's request goes first", async () => {
    const otherId = '7002';
    await dataSource.transaction((manager) =>
      new UserProfileRepository().createWithInbox(manager, { id: otherId, email: 'other@test', fullName: 'Other', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    const finished: string[] = [];
    const burst = Array.from({ length: 6 }, (_, index) =>
      executor.run(principal, [{ type: 'test_slow', uuid: randomUUID(), args: {} }]).then(() => finished.push(`burst ${index}`)),
    );
    // The burst is under way (its first transaction holds the user's row) before the other user asks.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = executor.run({ ...principal, userId: otherId }, [itemAdd('beside a burst')]).then(() => finished.push('other'));
    await Promise.all([...burst, other]);
    // With the pool's 4 connections held by the burst's waiters, the other user came after the
    // third of them; now it needs only a free connection, and gets it at once.
    expect(finished.indexOf('other')).toBeLessThanOrEqual(1);
  });

  describe('commands with remote work', () => {
    const remoteCommand = (label: string, fail?: string): SyncCommand => ({ type: 'test_remote', uuid: randomUUID(), args: { label, ...(fail ? { fail } : {}) } });
    const projectNamed = async (name: string) => (await dataSource.query<unknown[]>(`SELECT 1 FROM sync.projects WHERE name = $1`, [name])).length;

    it('does the remote work outside any transaction, once per uuid, between the local commands around it', async () => {
      remote.calls.length = 0;
      const before = itemAdd('before remote', 'tmp-before-remote');
      const call = remoteCommand('one');
      const after = itemAdd('after remote', 'tmp-after-remote', { parent_id: 'tmp-before-remote' });
      const results = await executor.run(principal, [before, call, after]);
      expect(Object.values(results.syncStatus)).toEqual(['ok', 'ok', 'ok']);
      expect(remote.calls).toEqual([{ args: { label: 'one' }, inTransaction: false }]);
      expect(await projectNamed('prepared:one')).toBe(1);
      // The later command resolved a temp id made before the remote command's own transaction.
      expect(Object.keys(results.tempIdMapping).sort()).toEqual(['tmp-after-remote', 'tmp-before-remote']);

      const again = await executor.run(principal, [before, call, after]);
      expect(again.syncStatus).toEqual(results.syncStatus);
      expect(remote.calls).toHaveLength(1);
      expect(await projectNamed('prepared:one')).toBe(1);
    });

    it('remembers a remote refusal, but not a remote outage (a retry may succeed)', async () => {
      remote.calls.length = 0;
      const refused = remoteCommand('no', 'refuse');
      const results = await executor.run(principal, [refused]);
      expect(results.syncStatus[refused.uuid]).toMatchObject({ error_tag: 'AUTHENTICATION_ERROR', http_code: 400 });
      expect(await loggedUuids()).toContain(refused.uuid);
      // An outage fails the whole request, as every outage does (HTTP 503 with Retry-After at
      // the edge), before its segment's transaction: nothing of it is written or remembered.
      const outage = remoteCommand('later', 'unavailable');
      await expect(executor.run(principal, [refused, outage])).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await loggedUuids()).not.toContain(outage.uuid);
      // The refusal is replayed without calling out again; the outage is tried again.
      await expect(executor.run(principal, [refused, outage])).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(remote.calls.map((entry) => entry.args['label'])).toEqual(['no', 'later', 'later']);
    });
  });
});
