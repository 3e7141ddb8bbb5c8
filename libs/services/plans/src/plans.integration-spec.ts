import { BUILTIN_CATALOGUE, PlansEvents, type PlanCatalogue, type UserPlanChanged } from '@doable/contracts-plans';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { PlanAssignments, planNames } from './assignments/plan-assignments';
import { parseCatalogue } from './catalogue/catalogue-file';
import { publishCatalogue } from './catalogue/catalogue-store';
import { plansMigrations } from './migrations';

/** The catalogue at start and each user's plan, against a real PostgreSQL; events are read from the outbox. */
describe('plans: catalogue publication and assignments (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  const assignments = new PlanAssignments();

  const publish = (catalogue: PlanCatalogue) => db.transaction((tx) => publishCatalogue(tx, catalogue));
  /** The user-plan-changed events written since `afterId`, oldest first. */
  const announced = async (afterId: string): Promise<UserPlanChanged[]> =>
    (
      await dataSource.query<Array<{ payload: UserPlanChanged }>>('SELECT payload FROM plans.outbox WHERE subject = $1 AND id > $2 ORDER BY id', [
        PlansEvents.userPlanChanged.name,
        afterId,
      ])
    ).map((row) => row.payload);
  const lastOutboxId = async (): Promise<string> => (await dataSource.query<Array<{ id: string }>>('SELECT coalesce(max(id), 0)::text AS id FROM plans.outbox'))[0].id;
  const planOf = async (userId: string) =>
    (await dataSource.query<Array<{ plan_id: string; revision: string }>>('SELECT plan_id, revision::text FROM plans.user_plans WHERE user_id = $1', [userId]))[0];

  beforeAll(async () => {
    database = await createTestDatabase('plans');
    dataSource = createServiceDataSource({ schema: 'plans', url: database.url, poolSize: 4, applicationName: 'test', migrations: plansMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    // The relay never runs here: the events stay in the outbox, where the tests read them.
    db = new Database(dataSource, 'plans', new OutboxRelay(dataSource, 'plans', { publish: () => Promise.resolve() }, createLogger('test', 'silent'), 3_600_000));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('refuses to assign before any catalogue is published', async () => {
    await expect(db.transaction((tx) => assignments.assignDefault(tx, '1'))).rejects.toThrow(/not been published/);
  });

  it('publishes the built-in catalogue first, announcing nobody', async () => {
    const before = await lastOutboxId();
    expect(await publish(BUILTIN_CATALOGUE)).toEqual({ changedPlans: ['free', 'pro', 'business'], announcedUsers: 0 });
    expect(await planNames(dataSource.manager)).toEqual(['free', 'pro', 'business']);
    const [free] = await dataSource.query<Array<{ is_default: boolean; limits: { current: { plan_name: string }; next: { plan_name: string } | null } }>>(
      `SELECT is_default, limits FROM plans.catalogue WHERE plan_name = 'free'`,
    );
    expect(free.is_default).toBe(true);
    expect([free.limits.current.plan_name, free.limits.next?.plan_name]).toEqual(['free', 'pro']);
    expect(await announced(before)).toEqual([]);
  });

  it('gives a new account the default plan once, announced once (a redelivered sign-up changes nothing)', async () => {
    const before = await lastOutboxId();
    await db.transaction((tx) => assignments.assignDefault(tx, '101'));
    const first = await planOf('101');
    await db.transaction((tx) => assignments.assignDefault(tx, '101'));
    expect(await planOf('101')).toEqual(first);
    expect(first.plan_id).toBe('free');
    const events = await announced(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ userId: '101', revision: first.revision, limits: { current: { plan_name: 'free', max_projects: 5 }, next: { plan_name: 'pro' } } });
  });

  it('puts a user on a plan with a higher revision, announced with its limits', async () => {
    const before = await lastOutboxId();
    const revisionBefore = BigInt((await planOf('101')).revision);
    const limits = await db.transaction((tx) => assignments.assign(tx, '101', 'business'));
    expect([limits.current.plan_name, limits.next]).toEqual(['business', null]);
    const after = await planOf('101');
    expect(after.plan_id).toBe('business');
    expect(BigInt(after.revision)).toBeGreaterThan(revisionBefore);
    expect(await announced(before)).toEqual([{ userId: '101', revision: after.revision, limits }]);
    expect(await assignments.limitsOf(dataSource.manager, '101')).toEqual(limits);
  });

  it('refuses a plan the catalogue does not have with INVALID_ARGUMENT_VALUE listing the plans, changing nothing', async () => {
    const before = await lastOutboxId();
    const refusal = await db.transaction((tx) => assignments.assign(tx, '101', 'gold')).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'plan', expected: ['free', 'pro', 'business'] } });
    expect((refusal as DomainError).message).toContain('free, pro, business');
    expect((await planOf('101')).plan_id).toBe('business');
    expect(await announced(before)).toEqual([]);
  });

  it('answers the default plan for a user it has not assigned yet', async () => {
    expect((await assignments.limitsOf(dataSource.manager, '999')).current.plan_name).toBe('free');
  });

  it('announces nobody when the same catalogue is published again', async () => {
    const before = await lastOutboxId();
    expect(await publish(BUILTIN_CATALOGUE)).toEqual({ changedPlans: [], announcedUsers: 0 });
    expect(await announced(before)).toEqual([]);
  });

  it('announces a changed plan to each of its users, with increasing revisions, and no one else', async () => {
    await db.transaction((tx) => assignments.assignDefault(tx, '102'));
    await db.transaction((tx) => assignments.assignDefault(tx, '103'));
    const before = await lastOutboxId();
    const catalogue = parseCatalogue({
      default: 'free',
      plans: [
        { plan_name: 'free', extends: 'free', max_projects: 8 },
        { plan_name: 'pro', extends: 'pro' },
        { plan_name: 'business', extends: 'business' },
      ],
    });
    expect(await publish(catalogue)).toEqual({ changedPlans: ['free'], announcedUsers: 2 });
    const events = await announced(before);
    expect(events.map((event) => [event.userId, event.limits.current.plan_name, event.limits.current.max_projects])).toEqual([
      ['102', 'free', 8],
      ['103', 'free', 8],
    ]);
    expect(BigInt(events[1].revision)).toBeGreaterThan(BigInt(events[0].revision));
    expect(events.map((event) => event.revision)).toEqual([(await planOf('102')).revision, (await planOf('103')).revision]);
  });

  it('announces a plan whose upgrade changed, though its own keys did not', async () => {
    const before = await lastOutboxId();
    const catalogue = parseCatalogue({
      default: 'free',
      plans: [
        { plan_name: 'free', extends: 'free', max_projects: 8, next: 'business' },
        { plan_name: 'pro', extends: 'pro' },
        { plan_name: 'business', extends: 'business' },
      ],
    });
    expect(await publish(catalogue)).toEqual({ changedPlans: ['free'], announcedUsers: 2 });
    expect((await announced(before)).map((event) => [event.userId, event.limits.next?.plan_name])).toEqual([
      ['102', 'business'],
      ['103', 'business'],
    ]);
  });

  it('moves the users of a removed plan to the default and announces them', async () => {
    const before = await lastOutboxId();
    // 101 is on business, which this catalogue drops; the default (free) is unchanged.
    const catalogue = parseCatalogue({
      default: 'free',
      plans: [
        { plan_name: 'free', extends: 'free', max_projects: 8, next: 'pro' },
        { plan_name: 'pro', extends: 'pro', next: null },
      ],
    });
    const result = await publish(catalogue);
    expect(result.changedPlans).toEqual(['free', 'pro']);
    const events = await announced(before);
    expect(events.map((event) => [event.userId, event.limits.current.plan_name])).toEqual(
      expect.arrayContaining([
        ['101', 'free'],
        ['102', 'free'],
        ['103', 'free'],
      ]),
    );
    // Each user is told once: 101 moved, 102 and 103 saw free change.
    expect(events.map((event) => event.userId).sort()).toEqual(['101', '102', '103']);
    expect(result.announcedUsers).toBe(3);
    expect((await planOf('101')).plan_id).toBe('free');
    expect(await planNames(dataSource.manager)).toEqual(['free', 'pro']);
  });

  it('moves the users of a removed plan to an unchanged default and announces only them', async () => {
    await db.transaction((tx) => assignments.assign(tx, '102', 'pro'));
    const before = await lastOutboxId();
    const catalogue = parseCatalogue({ default: 'free', plans: [{ plan_name: 'free', extends: 'free', max_projects: 8, next: null }] });
    // free's value changes too (its upgrade is gone), so its users are announced with the moved one.
    const result = await publish(catalogue);
    expect(result.changedPlans).toEqual(['free']);
    expect((await announced(before)).map((event) => event.userId).sort()).toEqual(['101', '102', '103']);
    expect((await planOf('102')).plan_id).toBe('free');

    await db.transaction((tx) => assignments.assign(tx, '103', 'free'));
    const beforeSecond = await lastOutboxId();
    await dataSource.query(`INSERT INTO plans.user_plans (user_id, plan_id) VALUES (104, 'retired')`);
    expect(await publish(catalogue)).toEqual({ changedPlans: [], announcedUsers: 1 });
    expect((await announced(beforeSecond)).map((event) => [event.userId, event.limits.current.plan_name])).toEqual([['104', 'free']]);
  });
});
