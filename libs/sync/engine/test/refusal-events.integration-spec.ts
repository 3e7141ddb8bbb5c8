import { randomUUID } from 'node:crypto';
import { eventSubject, type Principal } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { CommandExecutor } from '../src/command-executor';
import type { CommandContext, CommandHandler, CommandOutcome } from '../src/command-handler';
import { ownObjects } from '@doable/contracts-sync';

const USER_ID = '7601';
const principal: Principal = { userId: USER_ID, scopes: ['data:read_write'], appId: null, tokenKind: 'personal' };
const REFUSAL_SEEN = eventSubject('test.evt.refusal-seen.v1', z.object({ marker: z.string() }));

/**
 * Writes a project named after its marker, asks for an event should it be refused, then ends as
 * `outcome` says: ok, a remembered refusal, a transient one, or an unexpected crash.
 */
class MaybeRefusedCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_maybe_refused';
  async run(context: CommandContext, args: Record<string, unknown>): Promise<CommandOutcome> {
    const marker = String(args['marker']);
    await context.tx.manager.query(`INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, $2, 1, $3)`, [context.userId, marker, context.version]);
    context.emitOnRefusal(REFUSAL_SEEN, { marker });
    if (args['outcome'] === 'refused') throw new DomainError('INVALID_ARGUMENT_VALUE', 'refused on purpose', { argument: 'outcome' });
    if (args['outcome'] === 'transient') throw new DomainError('SERVICE_UNAVAILABLE');
    if (args['outcome'] === 'crash') throw new Error('unexpected on purpose');
    return {};
  }
}

/** Meets a deadlock inside the command the first `times` times it runs (a lock it waited on). */
class DeadlockedCommand implements CommandHandler {
  readonly policy = ownObjects();
  readonly type = 'test_deadlocked';
  runs = 0;
  constructor(private readonly times: number) {}
  async run(context: CommandContext): Promise<CommandOutcome> {
    this.runs++;
    if (this.runs <= this.times) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await context.tx.manager.query(`INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, 'after the deadlock', 1, $2)`, [context.userId, context.version]);
    return {};
  }
}

describe('CommandContext.emitOnRefusal and deadlocks inside a command (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;
  const deadlocked = new DeadlockedCommand(2);

  const seen = async () =>
    (await dataSource.query<Array<{ payload: { marker: string } }>>(`SELECT payload FROM sync.outbox WHERE subject = $1 ORDER BY id`, [REFUSAL_SEEN.name])).map((row) => row.payload.marker);
  const projectsNamed = async (name: string) => (await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM sync.projects WHERE name = $1`, [name]))[0].n;
  const command = (marker: string, outcome: string, uuid = randomUUID()) => ({ type: 'test_maybe_refused', uuid, args: { marker, outcome } });

  beforeAll(async () => {
    database = await createTestDatabase('refusal_events');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: USER_ID, email: 'refusals@test', fullName: 'Refusals', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    executor = new CommandExecutor(db, profiles, [new MaybeRefusedCommand(), deadlocked], logger, [], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('records the event of a refused command only, once its own writes are undone; the commands around it keep theirs', async () => {
    const commands = [command('kept-before', 'ok'), command('refused-one', 'refused'), command('kept-after', 'ok')];
    const result = await executor.run(principal, commands);
    expect(commands.map((sent) => result.syncStatus[sent.uuid])).toEqual(['ok', expect.objectContaining({ error_tag: 'INVALID_ARGUMENT_VALUE' }), 'ok']);
    expect(await seen()).toEqual(['refused-one']);
    expect([await projectsNamed('kept-before'), await projectsNamed('refused-one'), await projectsNamed('kept-after')]).toEqual([1, 0, 1]);
  });

  it('records nothing again when the refused uuid is sent again (its refusal is replayed)', async () => {
    const refused = command('replayed', 'refused');
    const first = await executor.run(principal, [refused]);
    const again = await executor.run(principal, [refused]);
    expect(again.syncStatus[refused.uuid]).toEqual(first.syncStatus[refused.uuid]);
    expect((await seen()).filter((marker) => marker === 'replayed')).toHaveLength(1);
  });

  it('records nothing for a transient refusal (not remembered: a retry runs it again) nor for a crash', async () => {
    const commands = [command('transient', 'transient'), command('crashed', 'crash')];
    const result = await executor.run(principal, commands);
    expect(commands.map((sent) => result.syncStatus[sent.uuid])).toEqual([
      expect.objectContaining({ error_tag: 'SERVICE_UNAVAILABLE' }),
      expect.objectContaining({ error_tag: 'INTERNAL_SERVER_ERROR' }),
    ]);
    expect(await seen()).not.toEqual(expect.arrayContaining(['transient']));
    expect(await seen()).not.toEqual(expect.arrayContaining(['crashed']));
  });

  it('runs the request again when a command meets a deadlock, rather than answering it INTERNAL', async () => {
    const uuid = randomUUID();
    const result = await executor.run(principal, [{ type: 'test_deadlocked', uuid, args: {} }]);
    expect(result.syncStatus[uuid]).toBe('ok');
    // The optimistic pass, the pass with savepoints, then the transaction run again.
    expect(deadlocked.runs).toBe(3);
    expect(await projectsNamed('after the deadlock')).toBe(1);
  });
});
