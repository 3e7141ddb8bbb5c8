import { randomUUID } from 'node:crypto';
import { gatewayRegistryBucket, type Principal, SCOPES } from '@doable/contracts-common';
import type { ObjectsReply } from '@doable/contracts-sync';
import { createServiceDataSource } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { createServiceApp, Database, loadServiceConfig, METRICS_REGISTRY, ReadReplica, type ServiceApp } from '@doable/shared-runtime';
import { createTestDatabase, deleteEventStream, startTestStandby, TEST_NATS_URL, type TestDatabase, type TestStandby, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { readMarksBucket, type ReadMarks, streamNameFor } from '@doable/shared-transport';
import { NewAccounts } from '@doable/sync-domain';
import { SyncEngine } from '@doable/sync-engine';
import type { SyncRead } from '@doable/sync-read';
import type { Registry } from 'prom-client';
import { ObjectsService } from '../src/objects/objects.service';
import { syncService } from '../src/sync.service-definition';

const ADA = '8101';
const BEN = '8102';
/** DATABASE_REPLICA_WAIT_MS here: long enough that a read which waited is plainly seen to have. */
const WAIT_MS = 200;
/** Starting a standby copies the whole test server (pg_basebackup): seconds alone, longer on a loaded machine. */
const SETUP_TIMEOUT_MS = 240_000;

const principalOf = (userId: string): Principal => ({ userId, scopes: [...SCOPES], appId: null, tokenKind: 'personal' });
const itemContents = (read: SyncRead | undefined): string[] => ((read?.rows.items ?? []) as Array<{ content: string }>).map((item) => item.content);
const taskContents = (reply: Pick<ObjectsReply, 'objects'>): string[] => (reply.objects as readonly unknown[] as ReadonlyArray<{ content: string }>).map((task) => task.content);

/**
 * The sync service reading from a real streaming replica (issue #48, docs/operations/postgres-replica.md):
 * a hot standby made by pg_basebackup of the test server, the service in cluster mode on NATS
 * with DATABASE_REPLICA_URL. Which server answered is counted (doable_db_reads_total) and, where
 * it matters, seen in the data: a change made on the primary only, with the standby's replay
 * paused, is missing from what the standby answers.
 */
describe('sync reads from a streaming replica, with read-your-writes (real PostgreSQL standby and NATS)', () => {
  let standby: TestStandby | undefined;
  let db: TestDatabase | undefined;
  let service: ServiceApp | undefined;
  let engine: SyncEngine;
  let objects: ObjectsService;
  let database: Database;
  let registry: Registry;
  const subjectPrefix = uniqueSubjectPrefix('read-replica');

  const addItem = async (userId: string, content: string): Promise<void> => {
    const uuid = randomUUID();
    const result = await engine.sync(principalOf(userId), { syncToken: null, resourceTypes: [], commands: [{ type: 'item_add', uuid, temp_id: randomUUID(), args: { content } }] });
    expect(result.syncStatus?.[uuid]).toBe('ok');
  };
  const syncRead = async (userId: string, syncToken: string): Promise<SyncRead> => (await engine.sync(principalOf(userId), { syncToken, resourceTypes: ['items'], commands: [] })).read!;
  const listTasks = (userId: string) => objects.handle({ principal: principalOf(userId), commands: [], query: { resource: 'tasks' } });
  /** doable_db_reads_total by `server/why`. */
  const served = async (): Promise<Map<string, number>> => {
    const metric = await registry.getSingleMetric('doable_db_reads_total')!.get();
    return new Map(metric.values.map((value) => [`${value.labels['server']}/${value.labels['why']}`, value.value]));
  };
  const readsSince = (before: Map<string, number>, after: Map<string, number>, server: 'primary' | 'standby'): Record<string, number> =>
    Object.fromEntries([...after].filter(([key, count]) => key.startsWith(`${server}/`) && count > (before.get(key) ?? 0)).map(([key, count]) => [key.slice(server.length + 1), count - (before.get(key) ?? 0)]));
  const onStandby = async (sql: string, params: unknown[] = []) => standby!.query<Record<string, unknown>>(db!.name, sql, params);

  beforeAll(async () => {
    standby = await startTestStandby();
    db = await createTestDatabase('read_replica');
    const config = loadServiceConfig(
      syncService,
      {
        NATS_URL: TEST_NATS_URL,
        NATS_SUBJECT_PREFIX: subjectPrefix,
        DATABASE_URL: db.url,
        DATABASE_POOL_SIZE: '4',
        DATABASE_REPLICA_URL: standby.urlOf(db.name),
        DATABASE_REPLICA_POOL_SIZE: '4',
        DATABASE_REPLICA_WAIT_MS: String(WAIT_MS),
        // Far above anything this spec pauses for: the lag bound has a test of its own below.
        DATABASE_REPLICA_MAX_LAG_MS: '120000',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      },
      'cluster',
    );
    service = await createServiceApp(syncService, config, { transport: { kind: 'nats', url: TEST_NATS_URL, subjectPrefix, name: 'sync' }, migrateOnStart: true }, createLogger('sync', 'silent'));
    engine = service.app.get(SyncEngine);
    objects = service.app.get(ObjectsService);
    database = service.app.get(Database);
    registry = service.app.get<Registry>(METRICS_REGISTRY);
    expect(database.readReplica).toBeInstanceOf(ReadReplica);
    const accounts = service.app.get(NewAccounts);
    for (const [userId, email] of [
      [ADA, 'ada@replica.test'],
      [BEN, 'ben@replica.test'],
    ]) {
      await database.transaction((tx) => accounts.welcome(tx, { userId, email, fullName: userId, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: true, emailVerified: true }));
    }
    await standby.caughtUp();
    await waitFor(() => database.readReplica!.watch.usable, 'the standby to serve reads');
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await service?.close();
    await standby?.stop();
    await db?.drop();
    await deleteEventStream(streamNameFor(subjectPrefix));
    for (const bucket of [readMarksBucket(subjectPrefix, 'sync'), gatewayRegistryBucket(subjectPrefix)]) await deleteEventStream(`KV_${bucket}`);
  }, SETUP_TIMEOUT_MS);

  it('with replay running, serves a user\'s full sync and task list from the standby, and the answers are the standby\'s data', async () => {
    await addItem(ADA, 'written through sync');
    // Replayed before the reads, so how fast the standby replays on a loaded machine decides nothing here.
    await standby!.caughtUp();
    const before = await served();
    expect(itemContents((await engine.sync(principalOf(ADA), { syncToken: '*', resourceTypes: ['items'], commands: [] })).read)).toContain('written through sync');
    expect(taskContents(await listTasks(ADA))).toContain('written through sync');
    const after = await served();
    expect(readsSince(before, after, 'primary')).toEqual({});
    expect(Object.values(readsSince(before, after, 'standby')).reduce((sum, count) => sum + count, 0)).toBe(2);

    // Seen in the data: a change on the primary that no mark announces (a hand-made UPDATE, replay
    // paused) is not in what the standby answers; once replayed, it is.
    await standby!.pauseReplay();
    try {
      await database.query(`UPDATE sync.items SET content = 'changed on the primary only' WHERE user_id = $1 AND content = 'written through sync'`, [ADA]);
      expect(itemContents((await engine.sync(principalOf(ADA), { syncToken: '*', resourceTypes: ['items'], commands: [] })).read)).toContain('written through sync');
      expect(taskContents(await listTasks(ADA))).toContain('written through sync');
    } finally {
      await standby!.resumeReplay();
    }
    await standby!.caughtUp();
    expect(taskContents(await listTasks(ADA))).toContain('changed on the primary only');
  });

  it('with replay paused, a write followed at once by a read of the same user is never stale: the read waits, then the primary answers', async () => {
    const token = (await engine.sync(principalOf(ADA), { syncToken: '*', resourceTypes: ['items'], commands: [] })).read!.syncToken;
    const rounds = 4;
    await standby!.pauseReplay();
    try {
      const before = await served();
      for (let round = 0; round < rounds; round++) {
        const content = `round ${round} ${randomUUID()}`;
        await addItem(ADA, content);
        // The standby really lacks it: read there, this would be stale.
        expect(await onStandby('SELECT 1 FROM sync.items WHERE content = $1', [content])).toEqual([]);
        const started = performance.now();
        expect(itemContents(await syncRead(ADA, token))).toContain(content);
        expect(performance.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 5);
        expect(itemContents((await engine.sync(principalOf(ADA), { syncToken: '*', resourceTypes: ['items'], commands: [] })).read)).toContain(content);
        expect(taskContents(await listTasks(ADA))).toContain(content);
      }
      const after = await served();
      expect(readsSince(before, after, 'primary')).toEqual({ behind: 3 * rounds });
      expect(readsSince(before, after, 'standby')).toEqual({});

      // Another user, whose data no commit changed since, still reads from the standby meanwhile.
      const benBefore = await served();
      await listTasks(BEN);
      expect(readsSince(benBefore, await served(), 'standby')).toEqual({ 'no-mark': 1 });
    } finally {
      await standby!.resumeReplay();
    }
    await standby!.caughtUp();
    const resumed = await served();
    expect(taskContents(await listTasks(ADA)).filter((content) => content.startsWith('round '))).toHaveLength(rounds);
    expect(readsSince(resumed, await served(), 'standby')).toEqual({ 'caught-up': 1 });
  });

  it('a read in the request of a write reads on the primary at once, without waiting for the standby', async () => {
    await standby!.pauseReplay();
    try {
      const before = await served();
      const uuid = randomUUID();
      const result = await engine.sync(principalOf(ADA), { syncToken: '*', resourceTypes: ['items'], commands: [{ type: 'item_add', uuid, temp_id: randomUUID(), args: { content: 'added and read together' } }] });
      expect(result.syncStatus?.[uuid]).toBe('ok');
      expect(itemContents(result.read)).toContain('added and read together');
      // Not among the reads the replica placed (a wait would have counted one `primary/behind`): it never asked.
      expect(await served()).toEqual(before);
    } finally {
      await standby!.resumeReplay();
    }
  });

  it('an incremental sync the standby answers from behind its token keeps the token, never moves it back', async () => {
    await standby!.caughtUp();
    await standby!.pauseReplay();
    try {
      // Changes no mark announces (made by hand on the primary), the first read into a token on the
      // primary (a request whose command was refused reads there): the token is ahead of the standby.
      const raise = () => database.query(`UPDATE sync.users SET high_water = nextval('sync.change_version') WHERE id = $1`, [ADA]);
      await raise();
      const uuid = randomUUID();
      const ahead = (await engine.sync(principalOf(ADA), { syncToken: '*', resourceTypes: ['items'], commands: [{ type: 'item_add', uuid, args: {} }] })).read!;
      await raise();
      const before = await served();
      const read = await syncRead(ADA, ahead.syncToken);
      expect(readsSince(before, await served(), 'standby')).toEqual({ 'caught-up': 1 });
      expect(read.rows.items).toEqual([]);
      expect(read.version).toBe(ahead.version);
      expect(read.syncToken).toBe(ahead.syncToken);
    } finally {
      await standby!.resumeReplay();
    }
  });

  it('past the lag bound the standby serves no one, and serves again once it catches up', async () => {
    const marks: ReadMarks = { get: () => Promise.resolve(undefined), raise: () => Promise.resolve() };
    // A replica of its own with a short bound, over the same two servers.
    const replica = new ReadReplica(
      database.dataSource,
      () => createServiceDataSource({ schema: 'sync', url: standby!.urlOf(db!.name), poolSize: 2, applicationName: 'doable-lag-spec', migrations: [] }),
      marks,
      { waitMs: 20, maxLagMs: 400, pollMs: 100 },
      createLogger('replica', 'silent'),
    );
    replica.start();
    try {
      await waitFor(() => replica.watch.usable, 'the standby to serve reads');
      await standby!.pauseReplay();
      try {
        // The primary moves on (other work on this server moves it too): the paused standby falls behind the bound.
        await database.query('CREATE TABLE sync.lag_probe (n int)');
        await waitFor(async () => {
          await database.query('INSERT INTO sync.lag_probe SELECT generate_series(1, 100)');
          return replica.watch.unusableReason === 'lagging';
        }, 'the paused standby to be judged lagging');
        expect(await replica.route(BEN)).toEqual({ server: 'primary', why: 'standby-unusable' });
      } finally {
        await standby!.resumeReplay();
      }
      await waitFor(() => replica.watch.usable, 'the standby to serve reads again once caught up');
      expect(await replica.route(BEN)).toEqual({ server: 'standby', why: 'no-mark' });
    } finally {
      await replica.close();
      await database.query('DROP TABLE IF EXISTS sync.lag_probe');
    }
  });

  it('with the standby stopped, every read is answered by the primary, none fails', async () => {
    await addItem(ADA, 'before the standby stopped');
    await standby!.stop();
    const before = await served();
    await addItem(ADA, 'after the standby stopped');
    expect(taskContents(await listTasks(ADA))).toContain('after the standby stopped');
    expect(itemContents((await engine.sync(principalOf(BEN), { syncToken: '*', resourceTypes: ['items'], commands: [] })).read)).toEqual([]);
    expect(taskContents(await listTasks(BEN))).toEqual([]);
    const after = await served();
    expect(readsSince(before, after, 'standby')).toEqual({});
    // Why depends on when the watch last polled (standby-unusable), or the read found it gone (standby-failed, behind).
    expect(Object.values(readsSince(before, after, 'primary')).reduce((sum, count) => sum + count, 0)).toBe(3);
    await waitFor(() => database.readReplica!.watch.unusableReason === 'unreachable', 'the standby to be judged unreachable');
  });
});
