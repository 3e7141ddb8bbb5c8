import { commandHandlers } from '@doable/sync-engine/testing';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { ArchivedItemsRepository, CompletedInfoRepository, PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { CommandExecutor } from '@doable/sync-engine';
import { givePlan } from '@doable/sync-domain/testing';
import { ArchivedItems } from './archived-items';
import { ObjectReadsRepository } from './object-reads.repository';

const USER_ID = '7401';
const BARE_ID = '7402';
const principal: Principal = { userId: USER_ID, scopes: ['data:read_write'], appId: null, tokenKind: 'personal' };

describe('ArchivedItems: v9 archive/items over the completed history (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let listings: ArchivedItems;
  let ids: Record<string, string> = {};

  const list = (params: Record<string, unknown>, userId = USER_ID) => listings.list(dataSource.manager, userId, params);
  const refusalOf = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (err) {
      if (err instanceof DomainError) return [err.code, err.extra['argument']];
      throw err;
    }
    throw new Error('expected a refusal');
  };

  beforeAll(async () => {
    database = await createTestDatabase('archived_items');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const id of [USER_ID, BARE_ID]) {
      await dataSource.transaction(async (manager) => {
        await profiles.createWithInbox(manager, { id, email: `${id}@test`, fullName: 'A', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true });
        await givePlan(manager, id, id === BARE_ID ? { completed_tasks: false } : {});
      });
    }
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const handlers = await commandHandlers();
    const executor = new CommandExecutor(db, profiles, handlers, logger, [], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
    listings = new ArchivedItems(new ObjectReadsRepository(), new ArchivedItemsRepository(), new CompletedInfoRepository(), new PlanLimitsRepository());

    const cmd = (type: string, args: Record<string, unknown>, temp_id?: string) => ({ type, uuid: randomUUID(), args, ...(temp_id ? { temp_id } : {}) });
    const setup = await executor.run(principal, [
      cmd('project_add', { name: 'Done things' }, 'p'),
      cmd('section_add', { project_id: 'p', name: 'S' }, 's'),
      ...['a', 'b', 'c', 'd', 'e'].map((name) => cmd('item_add', { project_id: 'p', content: name }, name)),
      cmd('item_add', { section_id: 's', content: 'in section' }, 'x'),
      cmd('item_add', { project_id: 'p', content: 'open parent' }, 'parent'),
      cmd('item_add', { parent_id: 'parent', content: 'done child' }, 'child'),
      cmd('item_add', { parent_id: 'parent', content: 'open child' }),
      cmd('project_add', { name: 'Nested' }, 'q'),
      cmd('item_add', { project_id: 'q', content: 'done parent' }, 'dp'),
      cmd('item_add', { parent_id: 'dp', content: 'done sub' }, 'ds'),
    ]);
    expect(Object.values(setup.syncStatus).every((status) => status === 'ok')).toBe(true);
    ids = setup.tempIdMapping;
    // One request per completion: each gets its own completed_at, in this order.
    for (const name of ['a', 'b', 'c', 'd', 'e', 'x', 'child', 'ds', 'dp']) {
      const done = await executor.run(principal, [cmd('item_close', { id: ids[name] })]);
      expect(Object.values(done.syncStatus)).toEqual(['ok']);
    }
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it("pages a project's completed top-level tasks newest first by cursor, each exactly once", async () => {
    const seen: string[] = [];
    let page = await list({ project_id: ids['p'], limit: '2' });
    expect(page['total']).toBe(5);
    for (;;) {
      seen.push(...(page['items'] as Array<{ content: string }>).map((item) => item.content));
      if (!page['has_more']) break;
      page = await list({ project_id: ids['p'], limit: '2', cursor: page['next_cursor'] });
    }
    expect(seen).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(page['next_cursor']).toBeNull();
  });

  it('continues after last_seen_id, and lists a section and a task on their own', async () => {
    const after = await list({ project_id: ids['p'], last_seen_id: ids['c'] });
    expect((after['items'] as Array<{ content: string }>).map((item) => item.content)).toEqual(['b', 'a']);
    const section = await list({ section_id: ids['s'] });
    expect((section['items'] as Array<{ content: string }>).map((item) => item.content)).toEqual(['in section']);
    const children = await list({ item_id: ids['parent'] });
    expect(children).toMatchObject({ total: 1, has_more: false, items: [expect.objectContaining({ content: 'done child', checked: true })] });
  });

  it('counts the completed subtasks of the listed tasks in completed_info, for those that have some', async () => {
    const nested = await list({ project_id: ids['q'] });
    expect((nested['items'] as Array<{ content: string }>).map((item) => item.content)).toEqual(['done parent']);
    expect(nested['completed_info']).toEqual([{ item_id: ids['dp'], id: ids['dp'], completed_items: 1 }]);
    // The open parent is not listed (it is not completed): its completed child does not show here.
    expect((await list({ project_id: ids['p'] }))['completed_info']).toEqual([]);
  });

  it('refuses a call without a container, a cursor of another container or limit, bad values and a plan without completed tasks', async () => {
    expect(await refusalOf(list({}))).toEqual(['ARGUMENT_MISSING', 'project_id']);
    const first = await list({ project_id: ids['p'], limit: '2' });
    expect(await refusalOf(list({ project_id: ids['p'], limit: '3', cursor: first['next_cursor'] }))).toEqual(['INVALID_ARGUMENT_VALUE', 'cursor']);
    expect(await refusalOf(list({ section_id: ids['s'], limit: '2', cursor: first['next_cursor'] }))).toEqual(['INVALID_ARGUMENT_VALUE', 'cursor']);
    expect(await refusalOf(list({ project_id: ids['p'], limit: '0' }))).toEqual(['INVALID_ARGUMENT_VALUE', 'limit']);
    expect(await refusalOf(list({ project_id: 'abc' }))).toEqual(['INVALID_ARGUMENT_VALUE', 'project_id']);
    expect(await refusalOf(list({ project_id: ids['p'], last_seen_id: ids['parent'] }))).toEqual(['INVALID_ARGUMENT_VALUE', 'last_seen_id']);
    expect(await refusalOf(list({ project_id: ids['p'] }, BARE_ID))).toEqual(['FEATURE_NOT_IN_PLAN', undefined]);
  });
});
