import { commandHandlers } from '@doable/sync-engine/testing';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { CompletedRepository, PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { CommandExecutor } from '@doable/sync-engine';
import { TaskFilterService } from '@doable/sync-read';
import { givePlan } from '@doable/sync-domain/testing';
import { CompletedService } from './completed.service';

const USER_ID = '7501';
const principal: Principal = { userId: USER_ID, scopes: ['data:read_write'], appId: null, tokenKind: 'personal' };

/** Each listing of the history, as the transports call it. */
const READS: ReadonlyArray<readonly [string, (service: CompletedService) => Promise<unknown>]> = [
  ['v9 completed/get_all', (service) => service.getAll(USER_ID, {})],
  ['api/v1 tasks/completed', (service) => service.apiV1(USER_ID, '/api/v1/tasks/completed', {})],
  ['api/v1 tasks/completed/by_completion_date', (service) => service.apiV1(USER_ID, '/api/v1/tasks/completed/by_completion_date', { since: '2000-01-01T00:00:00Z', until: '2000-02-01T00:00:00Z' })],
  ['api/v1 tasks/completed/by_due_date', (service) => service.apiV1(USER_ID, '/api/v1/tasks/completed/by_due_date', { since: '2000-01-01T00:00:00Z', until: '2000-02-01T00:00:00Z' })],
  ['api/v1 completed/search', (service) => service.apiV1(USER_ID, '/api/v1/completed/search', { query: 'Done' })],
];

describe('the completed-task history and the completed_tasks feature (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let service: CompletedService;

  const refusalOf = async (read: Promise<unknown>) => {
    try {
      await read;
    } catch (err) {
      if (err instanceof DomainError) return { code: err.code, extra: err.extra };
      throw err;
    }
    throw new Error('expected a refusal');
  };

  beforeAll(async () => {
    database = await createTestDatabase('completed_plan');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: USER_ID, email: 'done@completed.test', fullName: 'Done', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const executor = new CommandExecutor(db, profiles, await commandHandlers(), logger, [], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
    const added = await executor.run(principal, [
      { type: 'item_add', uuid: randomUUID(), temp_id: 'done', args: { content: 'Done task' } },
      { type: 'item_complete', uuid: randomUUID(), args: { id: 'done' } },
    ]);
    expect(Object.values(added.syncStatus)).toEqual(['ok', 'ok']);
    service = new CompletedService(db, new CompletedRepository(), new TaskFilterService(profiles), new PlanLimitsRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('lists the history on a plan with completed_tasks (the built-in free plan has it)', async () => {
    expect(await service.getAll(USER_ID, {})).toMatchObject({ items: [expect.objectContaining({ content: 'Done task' })] });
    expect(await service.apiV1(USER_ID, '/api/v1/completed/search', { query: 'Done' })).toMatchObject({ items: [expect.objectContaining({ content: 'Done task' })] });
  });

  it.each(READS)('refuses %s with FEATURE_NOT_IN_PLAN on a plan without completed_tasks', async (_name, read) => {
    await expect(read(service)).resolves.toBeDefined();
    await givePlan(dataSource.manager, USER_ID, { plan_name: 'no-history', completed_tasks: false });
    try {
      expect(await refusalOf(read(service))).toEqual({ code: 'FEATURE_NOT_IN_PLAN', extra: { feature: 'completed_tasks', plan: 'no-history' } });
    } finally {
      await dataSource.query(`DELETE FROM sync.user_plans WHERE user_id = $1`, [USER_ID]);
    }
  });
});
