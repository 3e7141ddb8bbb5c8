import { commandHandlers } from '../../../testing/command-handlers.harness';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { SyncEvents, type GoalReached, type KarmaLevelReached } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { DateTime } from 'luxon';
import type { DataSource } from 'typeorm';
import { PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { CommandExecutor } from '../../../src/command-executor';
import type { SyncCommand } from '../../../src/sync-request';

let nextUser = 7301;

/** Completing and reopening tasks through the item commands: karma, levels and goals (stats/karma.ts). */
describe('karma and goals on completion (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;
  const profiles = new UserProfileRepository();

  const run = (userId: string, ...commands: Array<Omit<SyncCommand, 'uuid'>>) =>
    executor.run(
      { userId, scopes: ['data:read_write', 'data:delete'], appId: null, tokenKind: 'personal' } satisfies Principal,
      commands.map((command) => ({ ...command, uuid: randomUUID() })),
    );

  /** A new user (no days off unless given, UTC) with `count` open tasks; answers their ids. */
  async function userWithTasks(count: number, settings: Record<string, unknown> = {}): Promise<{ userId: string; tasks: string[] }> {
    const userId = String(nextUser++);
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: userId, email: `${userId}@test`, fullName: userId, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    const values = { days_off: [], ...settings };
    const columns = Object.keys(values);
    await dataSource.query(`UPDATE sync.users SET ${columns.map((column, index) => `${column} = $${index + 2}`).join(', ')} WHERE id = $1`, [userId, ...Object.values(values)]);
    const result = await run(userId, ...Array.from({ length: count }, (_, index) => ({ type: 'item_add', temp_id: `t${index}`, args: { content: `task ${index}` } })));
    return { userId, tasks: Array.from({ length: count }, (_, index) => result.tempIdMapping[`t${index}`]) };
  }

  const close = (userId: string, id: string) => run(userId, { type: 'item_close', args: { id } });
  const karmaOf = async (userId: string) =>
    (
      await dataSource.query<Array<{ karma: number; karma_trend: string; karma_level: number; version: string }>>(
        `SELECT karma, karma_trend, karma_level, version::text FROM sync.users WHERE id = $1`,
        [userId],
      )
    )[0];
  const eventsOf = async <P extends { userId: string }>(subject: string, userId: string): Promise<P[]> =>
    (await dataSource.query<Array<{ payload: P }>>(`SELECT payload FROM sync.outbox WHERE subject = $1 ORDER BY id`, [subject])).map((row) => row.payload).filter((payload) => payload.userId === userId);
  const goals = (userId: string) => eventsOf<GoalReached>(SyncEvents.goalReached.name, userId);
  const today = () => DateTime.utc().toISODate();

  beforeAll(async () => {
    database = await createTestDatabase('karma');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const logger = createLogger('test', 'silent');
    const relay = new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger, 3_600_000);
    const handlers = await commandHandlers();
    executor = new CommandExecutor(new Database(dataSource, 'sync', relay), profiles, handlers, logger, [], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('earns a point per completed task and gives it back on reopening; the user object changes with it', async () => {
    const { userId, tasks } = await userWithTasks(3, { daily_goal: 0, weekly_goal: 0 });
    const before = await karmaOf(userId);
    expect(before).toMatchObject({ karma: 0, karma_trend: 'none', karma_level: 1 });
    await close(userId, tasks[0]);
    await close(userId, tasks[1]);
    const earned = await karmaOf(userId);
    expect(earned).toMatchObject({ karma: 2, karma_trend: 'up' });
    expect(BigInt(earned.version)).toBeGreaterThan(BigInt(before.version));

    // Completing a completed task again earns nothing; reopening an open one takes nothing.
    await run(userId, { type: 'item_complete', args: { ids: [tasks[0]] } });
    await run(userId, { type: 'item_uncomplete', args: { ids: [tasks[2]] } });
    expect((await karmaOf(userId)).karma).toBe(2);

    await run(userId, { type: 'item_uncomplete', args: { ids: [tasks[1]] } });
    expect(await karmaOf(userId)).toMatchObject({ karma: 1, karma_trend: 'down' });
    const profile = await profiles.find(dataSource.manager, userId);
    expect(profile).toMatchObject({ karma: 1, karma_trend: 'down' });
  });

  it('changes no karma when karma is disabled, and still tells of a reached goal', async () => {
    const { userId, tasks } = await userWithTasks(1, { karma_disabled: true, daily_goal: 1, weekly_goal: 0 });
    await close(userId, tasks[0]);
    expect((await karmaOf(userId)).karma).toBe(0);
    expect(await goals(userId)).toEqual([{ userId, goal: 'daily', count: 1, target: 1, period: today() }]);
  });

  it('announces the daily goal once, when today’s completions reach it', async () => {
    const { userId, tasks } = await userWithTasks(4, { daily_goal: 3, weekly_goal: 0 });
    await close(userId, tasks[0]);
    await close(userId, tasks[1]);
    expect(await goals(userId)).toEqual([]);
    await close(userId, tasks[2]);
    expect(await goals(userId)).toEqual([{ userId, goal: 'daily', count: 3, target: 3, period: today() }]);
    // Past the goal, and below it and back (a reopening): the day's goal was announced already.
    await close(userId, tasks[3]);
    await run(userId, { type: 'item_uncomplete', args: { ids: [tasks[3], tasks[2]] } });
    await close(userId, tasks[2]);
    expect(await goals(userId)).toHaveLength(1);
  });

  it('announces the weekly goal once, with the week’s first day (the user’s start_day) as its period', async () => {
    const { userId, tasks } = await userWithTasks(3, { daily_goal: 0, weekly_goal: 2, start_day: 1 });
    for (const task of tasks) await close(userId, task);
    const now = DateTime.utc();
    expect(await goals(userId)).toEqual([{ userId, goal: 'weekly', count: 2, target: 2, period: now.minus({ days: now.weekday - 1 }).toISODate() }]);
  });

  it('announces no goal in vacation mode, and no daily goal on a day off', async () => {
    const vacation = await userWithTasks(1, { daily_goal: 1, weekly_goal: 1, vacation_mode: true });
    await close(vacation.userId, vacation.tasks[0]);
    expect(await goals(vacation.userId)).toEqual([]);

    const dayOff = await userWithTasks(1, { daily_goal: 1, weekly_goal: 1, days_off: [DateTime.utc().weekday] });
    await close(dayOff.userId, dayOff.tasks[0]);
    expect((await goals(dayOff.userId)).map((goal) => goal.goal)).toEqual(['weekly']);
  });

  it('announces a new karma level once, not again after falling below it and climbing back', async () => {
    const { userId, tasks } = await userWithTasks(2, { daily_goal: 0, weekly_goal: 0, karma: 499 });
    await close(userId, tasks[0]);
    expect(await karmaOf(userId)).toMatchObject({ karma: 500, karma_level: 2 });
    expect(await eventsOf<KarmaLevelReached>(SyncEvents.karmaLevelReached.name, userId)).toEqual([{ userId, level: 2, karma: 500 }]);

    await run(userId, { type: 'item_uncomplete', args: { ids: [tasks[0]] } });
    expect(await karmaOf(userId)).toMatchObject({ karma: 499, karma_level: 2 });
    await close(userId, tasks[1]);
    expect(await eventsOf(SyncEvents.karmaLevelReached.name, userId)).toHaveLength(1);
  });
});
