import { commandHandlers } from '@doable/sync-engine/testing';
import { ItemRepository, LabelRepository, PlanLimitsRepository, ProjectMembersRepository, ProjectRepository, SectionRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { requestIdUuid } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { CommandExecutor, ItemQuickAddCommand } from '@doable/sync-engine';
import { failFirstCommit } from '@doable/sync-domain/testing';
import { QuickAddService } from './quick-add.service';

const USER_ID = '7101';
/** Deadlock victim, serialization failure: PostgreSQL rolled the transaction back whole. */
const RETRIED = ['40P01', '40001'];
const principal: Principal = { userId: USER_ID, scopes: ['data:read_write'], appId: null, tokenKind: 'personal' };

describe('QuickAddService: quick add as one command of the executor (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;
  let service: QuickAddService;
  const failing = new Map<string, Awaited<ReturnType<typeof failFirstCommit>>>();

  const tasks = async (content: string) =>
    dataSource.query<Array<{ id: string; labels: string[]; version: string }>>(`SELECT id::text, labels, version::text FROM sync.items WHERE user_id = $1 AND content = $2 ORDER BY id`, [
      USER_ID,
      content,
    ]);
  const labelCount = async (name: string) =>
    Number((await dataSource.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM sync.labels WHERE user_id = $1 AND name = $2`, [USER_ID, name]))[0].n);
  const refusalOf = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (err) {
      if (err instanceof DomainError) return { code: err.code, argument: err.extra?.['argument'] };
      throw err;
    }
    throw new Error('expected a refusal');
  };

  beforeAll(async () => {
    database = await createTestDatabase('quick_add');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    // A task named `Survives <SQLSTATE> …` fails its first COMMIT with that SQLSTATE.
    for (const code of RETRIED) {
      failing.set(code, await failFirstCommit(dataSource, { name: `fail_once_${code.toLowerCase()}`, table: 'sync.items', sqlstate: code, condition: `NEW.content LIKE 'Survives ${code} %'` }));
    }

    const profiles = new UserProfileRepository();
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: USER_ID, email: 'quick@test', fullName: 'Quick', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const [items, projects, sections, labels] = [new ItemRepository(), new ProjectRepository(), new SectionRepository(), new LabelRepository()];
    const handlers = await commandHandlers();
    executor = new CommandExecutor(db, profiles, handlers, logger, [new ItemQuickAddCommand(handlers, projects, sections, labels)], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
    service = new QuickAddService(db, executor, projects, sections, labels, items);

    const setup = await executor.run(principal, [
      { type: 'project_add', uuid: randomUUID(), temp_id: 'work', args: { name: 'Work' } },
      { type: 'section_add', uuid: randomUUID(), args: { name: 'Meetings', project_id: 'work' } },
    ]);
    expect(Object.values(setup.syncStatus)).toEqual(['ok', 'ok']);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('adds the task the line describes, with its new label, comment and reminder, under one version', async () => {
    const body = await service.quickAdd(principal, 'rest-api-v1', { text: 'Plan #Work /Meetings @Phone p2 tomorrow', note: 'agenda', reminder: 'tomorrow at 9am', meta: 'true' });
    expect(body).toMatchObject({ content: 'Plan', priority: 3, labels: ['Phone'], note_count: 1, meta: { text: 'Plan #Work /Meetings @Phone p2 tomorrow', content: 'Plan' } });
    const [task] = await tasks('Plan');
    const versions = await dataSource.query<Array<{ version: string }>>(
      `SELECT version::text FROM sync.labels WHERE user_id = $1 AND name = 'Phone'
       UNION ALL SELECT version::text FROM sync.notes WHERE item_id = $2
       UNION ALL SELECT version::text FROM sync.reminders WHERE item_id = $2`,
      [USER_ID, task.id],
    );
    expect(versions.map((row) => row.version)).toEqual([task.version, task.version, task.version]);
  });

  it.each(RETRIED)('runs a quick add again when its transaction is aborted with %s, and adds the task once', async (code) => {
    const content = `Survives ${code} quick add`;
    const body = await service.quickAdd(principal, 'sync-v9', { text: `${content} @retried${code}` });
    expect(body).toMatchObject({ content, labels: [`retried${code}`] });
    expect(await failing.get(code)!.attempts()).toBe(2);
    expect((await tasks(content)).map((task) => task.id)).toEqual([body['id']]);
    expect(await labelCount(`retried${code}`)).toBe(1);
  });

  it('answers a replayed X-Request-Id with the task the first request created, adding nothing', async () => {
    const requestId = `replay-${randomUUID()}`;
    const first = await service.quickAdd(principal, 'rest-api-v1', { text: 'Replayed once @replayed', note: 'only one' }, requestId);
    const replay = await service.quickAdd(principal, 'rest-api-v1', { text: 'Replayed once @replayed', note: 'only one' }, requestId);
    expect(replay).toEqual(first);
    expect(await tasks('Replayed once')).toHaveLength(1);
    const [{ n: notes }] = await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM sync.notes WHERE item_id = $1`, [first['id']]);
    expect(notes).toBe(1);
    const [logged] = await dataSource.query<Array<{ temp_id_mapping: Record<string, string> }>>(`SELECT temp_id_mapping FROM sync.command_log WHERE user_id = $1 AND uuid = $2`, [
      USER_ID,
      requestIdUuid(requestId),
    ]);
    expect(logged.temp_id_mapping).toEqual({ [`quick_add:${requestIdUuid(requestId)}`]: first['id'] });
  });

  it('answers a quick add logged before its temp id was bound to the uuid, under the plain quick_add key', async () => {
    const requestId = `earlier-${randomUUID()}`;
    const first = await service.quickAdd(principal, 'rest-api-v1', { text: 'Logged the old way' }, requestId);
    await dataSource.query(`UPDATE sync.command_log SET temp_id_mapping = $3 WHERE user_id = $1 AND uuid = $2`, [USER_ID, requestIdUuid(requestId), JSON.stringify({ quick_add: first['id'] })]);
    expect(await service.quickAdd(principal, 'rest-api-v1', { text: 'Logged the old way' }, requestId)).toEqual(first);
    expect(await tasks('Logged the old way')).toHaveLength(1);
  });

  it("leaves a client's own temp id named quick_add unmapped: it never names a quick-added task", async () => {
    await service.quickAdd(principal, 'rest-api-v1', { text: 'Not a temp id' });
    const uuid = randomUUID();
    const results = await executor.run(principal, [{ type: 'note_add', uuid, args: { item_id: 'quick_add', content: 'where does this go?' } }]);
    expect(results.syncStatus[uuid]).toMatchObject({ error_tag: 'INVALID_TEMPID' });
  });

  it('refuses an X-Request-Id a different command used, adding nothing', async () => {
    const requestId = `reused-${randomUUID()}`;
    const add = await executor.run(principal, [{ type: 'item_add', uuid: requestIdUuid(requestId), temp_id: 'rest-temp', args: { content: 'Plain add' } }]);
    expect(add.syncStatus[requestIdUuid(requestId)]).toBe('ok');
    expect(await refusalOf(service.quickAdd(principal, 'rest-api-v1', { text: 'Quick reuse' }, requestId))).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'X-Request-Id' });
    expect(await tasks('Quick reuse')).toHaveLength(0);
  });

  it('answers a refusal as the coded error it was, and writes nothing of the refused quick add', async () => {
    expect(await refusalOf(service.quickAdd(principal, 'sync-v9', {}))).toEqual({ code: 'ARGUMENT_MISSING', argument: 'text' });
    expect(await refusalOf(service.quickAdd(principal, 'sync-v9', { text: '#Work p1' }))).toEqual({ code: 'ITEM_CONTENT_EMPTY', argument: 'content' });
    expect(await refusalOf(service.quickAdd(principal, 'sync-v9', { text: 'Half done @brandnew', reminder: 'tomorrow' }))).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE' });
    expect(await tasks('Half done')).toHaveLength(0);
    expect(await labelCount('brandnew')).toBe(0);
    expect(await refusalOf(service.quickAdd(principal, 'sync-v9', { text: 'nul\u0000 inside' }))).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'text' });
    const reader: Principal = { ...principal, scopes: ['data:read'], tokenKind: 'oauth' };
    expect(await refusalOf(service.quickAdd(reader, 'sync-v9', { text: 'Not allowed' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await tasks('Not allowed')).toHaveLength(0);
  });

  it('is not a Sync API command: a client sending quick_add gets UNKNOWN_COMMAND and nothing is added', async () => {
    const uuid = randomUUID();
    const results = await executor.run(principal, [{ type: 'quick_add', uuid, temp_id: 'quick_add', args: { text: 'Smuggled in' } }]);
    expect(results.syncStatus[uuid]).toMatchObject({ error_tag: 'UNKNOWN_COMMAND' });
    expect(results.tempIdMapping).toEqual({});
    expect(await tasks('Smuggled in')).toHaveLength(0);
  });
});
