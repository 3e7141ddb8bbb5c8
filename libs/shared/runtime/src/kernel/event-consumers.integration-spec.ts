import { type EventEnvelope, eventSubject } from '@doable/contracts-common';
import { createServiceDataSource, messagingTablesDown, messagingTablesUp, migrateUp, OutboxRelay, outboxTraceContextUp } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { createTestDatabase, deleteEventStream, TEST_NATS_URL, type TestDatabase, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { type EventBus, type EventOutcome, InProcessBroker, InProcessEventBus, JetStreamEventBus, streamNameFor } from '@doable/shared-transport';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { Database } from '../service/database';
import type { ServiceDefinition } from '../service/service-definition';
import { EventConsumers } from './event-consumers';

const SCHEMA = 'batched_consumers';
const DURABLE = 'test.apply';

class CreateTables1700000000000 implements MigrationInterface {
  name = 'CreateTables1700000000000';
  async up(queryRunner: QueryRunner) {
    for (const sql of [
      `CREATE TABLE ${SCHEMA}.applied (event_id text NOT NULL, n int NOT NULL, txid bigint NOT NULL)`,
      `CREATE TABLE ${SCHEMA}.parents (n int PRIMARY KEY)`,
      // Checked at COMMIT, not at the statement: a way to make a batch's COMMIT fail after every unit held.
      `CREATE TABLE ${SCHEMA}.checked_at_commit (n int REFERENCES ${SCHEMA}.parents (n) DEFERRABLE INITIALLY DEFERRED)`,
      ...messagingTablesUp(SCHEMA),
      ...outboxTraceContextUp(SCHEMA),
    ])
      await queryRunner.query(sql);
  }
  async down(queryRunner: QueryRunner) {
    for (const sql of [...messagingTablesDown(SCHEMA), `DROP TABLE ${SCHEMA}.checked_at_commit`, `DROP TABLE ${SCHEMA}.parents`, `DROP TABLE ${SCHEMA}.applied`]) await queryRunner.query(sql);
  }
}

/** How an event's handler misbehaves until the test heals it: an error thrown after its writes, a statement PostgreSQL refuses, or a write that fails the COMMIT. */
type Fault = 'throw' | 'sql' | 'commit';
const batched = eventSubject('test.evt.batched.v1', z.object({ n: z.number() }));
const followUp = eventSubject('test.evt.follow-up.v1', z.object({ n: z.number() }));
/** Taken by a consumer that says which payloads concern it (the even ones). */
const sometimes = eventSubject('test.evt.sometimes.v1', z.object({ n: z.number() }));
const SOMETIMES_DURABLE = 'test.sometimes';

const testService = { name: 'test', defaultPort: 0, env: z.object({}), imports: () => [] } as unknown as ServiceDefinition;

type Kind = 'in-process' | 'nats';

/**
 * Issue #48: a consumer's events are handled in batches, one transaction and one COMMIT per
 * batch, a claim and a savepoint per event (EventConsumers over Database.batch), acknowledged
 * after the COMMIT, over both buses. What must hold: each event applied exactly once, however
 * often it comes; an event that fails is undone alone (its writes, its events, its wakes) and
 * applied once when it comes again; a batch whose COMMIT fails holds nothing.
 */
describe.each<Kind>(['in-process', 'nats'])('event consumers in batches over %s (real PostgreSQL and NATS)', (kind) => {
  const prefix = uniqueSubjectPrefix(`batched-${kind}`);
  const logger = createLogger('test', 'silent');
  let testDatabase: TestDatabase;
  let dataSource: DataSource;
  let bus: EventBus;
  let consumers: EventConsumers;
  /** Per event id, how often its handler began. */
  const attempts = new Map<string, number>();
  /** The managers the handler was given, one per unit. */
  const managers: EntityManager[] = [];
  /** What afterCommit woke, by n. */
  const woken: number[] = [];
  /** The events (by n) whose handler misbehaves, until healed. */
  const faults = new Map<number, Fault>();
  /** A handler of this n waits for the gate before it writes. */
  let gated: { n: number; open: Promise<void> } | undefined;

  const envelope = (n: number): EventEnvelope => ({ id: randomUUID(), subject: batched.name, occurredAt: new Date().toISOString(), payload: { n } });
  const applied = () => dataSource.query<Array<{ event_id: string; n: number; txid: string }>>(`SELECT event_id, n, txid::text FROM ${SCHEMA}.applied ORDER BY n`);
  const followUps = async () => (await dataSource.query<Array<{ n: number }>>(`SELECT (payload->>'n')::int AS n FROM ${SCHEMA}.outbox ORDER BY 1`)).map((row) => row.n);
  const appliedNs = async () => (await applied()).map((row) => row.n);
  const transactions = async () => new Set((await applied()).map((row) => row.txid)).size;

  /** Publishes as the outbox relay does; over NATS, the consumer takes them when they arrive. */
  const publish = (envelopes: readonly EventEnvelope[]): Promise<readonly EventOutcome[]> => bus.publishAll(envelopes);

  beforeAll(async () => {
    testDatabase = await createTestDatabase(`batched_${kind.replace('-', '_')}`);
    dataSource = createServiceDataSource({ schema: SCHEMA, url: testDatabase.url, poolSize: 4, applicationName: 'test', migrations: [CreateTables1700000000000] });
    await dataSource.initialize();
    await migrateUp(dataSource);
    bus =
      kind === 'nats'
        ? await JetStreamEventBus.connect({ url: TEST_NATS_URL, name: 'batched-test', stream: streamNameFor(prefix), subjectPrefix: prefix, logger })
        : new InProcessEventBus(new InProcessBroker(), prefix);
    // The relay never runs: the follow-up events stay in the outbox, where the test reads them.
    const database = new Database(dataSource, SCHEMA, new OutboxRelay(dataSource, SCHEMA, { publish: () => Promise.resolve() }, logger, 3_600_000));
    consumers = new EventConsumers(testService, bus, logger, database);
    consumers.on('apply', batched, async ({ n }, tx, { id }) => {
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      managers.push(tx.manager);
      if (gated?.n === n) await gated.open;
      await tx.manager.query(`INSERT INTO ${SCHEMA}.applied (event_id, n, txid) VALUES ($1, $2, txid_current())`, [id, n]);
      await tx.emit(followUp, { n });
      tx.afterCommit(() => woken.push(n));
      const fault = faults.get(n);
      if (fault === 'throw') throw new Error(`event ${n} fails`);
      // NULL into a NOT NULL column: PostgreSQL refuses it, and the transaction is aborted until the savepoint is rolled back to.
      if (fault === 'sql') await tx.manager.query(`INSERT INTO ${SCHEMA}.applied (event_id, n, txid) VALUES (NULL, $1, 0)`, [n]);
      if (fault === 'commit') await tx.manager.query(`INSERT INTO ${SCHEMA}.checked_at_commit (n) VALUES ($1)`, [-n - 1]);
    });
    consumers.on(
      'sometimes',
      sometimes,
      async ({ n }, tx, { id }) => {
        await tx.manager.query(`INSERT INTO ${SCHEMA}.applied (event_id, n, txid) VALUES ($1, $2, txid_current())`, [id, 1000 + n]);
      },
      { concerns: ({ n }) => n % 2 === 0 },
    );
    await consumers.start();
  });

  afterAll(async () => {
    await consumers.stop();
    await bus.close();
    if (kind === 'nats') await deleteEventStream(streamNameFor(prefix));
    await dataSource.destroy();
    await testDatabase.drop();
  });

  beforeEach(async () => {
    attempts.clear();
    faults.clear();
    managers.length = 0;
    woken.length = 0;
    gated = undefined;
    await dataSource.query(`TRUNCATE ${SCHEMA}.applied, ${SCHEMA}.checked_at_commit, ${SCHEMA}.outbox, ${SCHEMA}.processed_events`);
  });

  /** Every n in `ns` applied exactly once, with one follow-up event and one wake each, and nothing else. */
  const expectAppliedOnce = async (ns: readonly number[]) => {
    const sorted = [...ns].sort((a, b) => a - b);
    expect(await appliedNs()).toEqual(sorted);
    expect(await followUps()).toEqual(sorted);
    expect([...woken].sort((a, b) => a - b)).toEqual(sorted);
    const [{ claimed }] = await dataSource.query<Array<{ claimed: number }>>(`SELECT count(*)::int AS claimed FROM ${SCHEMA}.processed_events WHERE consumer = $1`, [DURABLE]);
    expect(claimed).toBe(ns.length);
  };

  it('acknowledges an event that does not concern the consumer without claiming it or opening a transaction, and takes the others as ever', async () => {
    const sent = Array.from({ length: 4 }, (_, n) => ({ ...envelope(n), subject: sometimes.name }));
    expect((await publish(sent)).every((outcome) => outcome.done)).toBe(true);
    const claimed = async () =>
      (await dataSource.query<Array<{ event_id: string }>>(`SELECT event_id FROM ${SCHEMA}.processed_events WHERE consumer = $1 ORDER BY event_id`, [SOMETIMES_DURABLE])).map(
        (row) => row.event_id,
      );
    await waitFor(async () => (await appliedNs()).length === 2, 'the two that concern it applied');
    expect(await appliedNs()).toEqual([1000, 1002]);
    expect(await claimed()).toEqual([sent[0].id, sent[2].id].sort());
    if (kind === 'nats') {
      // Acknowledged: none waits for a redelivery.
      const nc = await connect({ servers: TEST_NATS_URL });
      try {
        const consumer = () => jetstreamManager(nc).then((jsm) => jsm.consumers.info(streamNameFor(prefix), SOMETIMES_DURABLE.replace('.', '_')));
        await waitFor(async () => (await consumer()).num_ack_pending === 0 && (await consumer()).num_pending === 0, 'all four acknowledged');
      } finally {
        await nc.close();
      }
    }
  });

  if (kind === 'in-process') {
    it('handles what the relay publishes together in one transaction, each event in a unit of its own, and a batch that comes again not again', async () => {
      const sent = Array.from({ length: 30 }, (_, n) => envelope(n));
      expect((await publish(sent)).every((outcome) => outcome.done)).toBe(true);
      await expectAppliedOnce(sent.map((_, n) => n));
      expect(await transactions()).toBe(1);
      // Each unit its own manager on the one connection (what a handler keeps per manager stays its event's).
      expect(new Set(managers).size).toBe(30);

      // The relay publishes again what it is not sure of: done, and nothing applied twice.
      expect((await publish([...sent, envelope(30)])).every((outcome) => outcome.done)).toBe(true);
      await expectAppliedOnce([...sent.map((_, n) => n), 30]);
    });

    it('undoes a failing event alone: the others of its batch commit once, it is not done, and it is applied once when the relay publishes it again', async () => {
      faults.set(3, 'throw').set(7, 'sql');
      const sent = Array.from({ length: 10 }, (_, n) => envelope(n));
      const outcomes = await publish(sent);
      expect(outcomes.map((outcome) => outcome.done)).toEqual(sent.map((_, n) => n !== 3 && n !== 7));
      expect(await transactions()).toBe(1);
      await expectAppliedOnce([0, 1, 2, 4, 5, 6, 8, 9]);

      faults.clear();
      expect((await publish([sent[3], sent[7]])).every((outcome) => outcome.done)).toBe(true);
      await expectAppliedOnce(sent.map((_, n) => n));
    });

    it('holds nothing of a batch whose COMMIT fails; every event of it is applied once when it comes again', async () => {
      faults.set(2, 'commit');
      const sent = Array.from({ length: 5 }, (_, n) => envelope(n));
      expect((await publish(sent)).map((outcome) => outcome.done)).toEqual([false, false, false, false, false]);
      await expectAppliedOnce([]);

      faults.clear();
      expect((await publish(sent)).every((outcome) => outcome.done)).toBe(true);
      await expectAppliedOnce([0, 1, 2, 3, 4]);
    });
  }

  if (kind === 'nats') {
    const consumerInfo = async () => {
      const nc = await connect({ servers: TEST_NATS_URL });
      try {
        return await (await jetstreamManager(nc)).consumers.info(streamNameFor(prefix), DURABLE.replace(/[^A-Za-z0-9_-]/g, '_'));
      } finally {
        await nc.close();
      }
    };
    /** Every event taken and acknowledged: nothing waiting, nothing in hand. */
    const drained = async () => {
      const info = await consumerInfo();
      return info.num_pending === 0 && info.num_ack_pending === 0;
    };

    it('takes what piled up while a batch was in hand in one transaction, acknowledges after the COMMIT, and skips an event that comes again', async () => {
      let open!: () => void;
      gated = { n: 0, open: new Promise<void>((resolve) => (open = resolve)) };
      const first = envelope(0);
      await publish([first]);
      await waitFor(() => attempts.size === 1, 'the first event in hand');
      const behind = Array.from({ length: 20 }, (_, index) => envelope(index + 1));
      await publish(behind);
      // Handed to this replica and not acknowledged: the one in hand and the 20 behind it.
      await waitFor(async () => (await consumerInfo()).num_ack_pending === 21, 'the 20 events pulled behind the first');
      // A round trip on the bus's own connection: everything the server sent before it has been read.
      await (bus as JetStreamEventBus).connection.flush();
      open();
      await waitFor(drained, 'every event acknowledged');
      await expectAppliedOnce(Array.from({ length: 21 }, (_, n) => n));
      // The first alone, the 20 that piled up behind it together.
      expect(await transactions()).toBe(2);

      // The same event again (another message id, so the stream keeps it): acknowledged, not applied again.
      const nc = await connect({ servers: TEST_NATS_URL });
      try {
        await jetstream(nc).publish(prefix + batched.name, JSON.stringify(behind[4]), { msgID: `again-${behind[4].id}` });
      } finally {
        await nc.close();
      }
      await waitFor(async () => (await drained()) && (await consumerInfo()).delivered.consumer_seq === 22, 'the repeat taken');
      await expectAppliedOnce(Array.from({ length: 21 }, (_, n) => n));
    });

    it('undoes a failing event alone, and applies it once when the server delivers it again', async () => {
      faults.set(3, 'throw').set(7, 'sql');
      const sent = Array.from({ length: 10 }, (_, n) => envelope(n));
      expect((await publish(sent)).every((outcome) => outcome.done)).toBe(true);
      await waitFor(async () => (await appliedNs()).length === 8, 'the eight others applied');
      await expectAppliedOnce([0, 1, 2, 4, 5, 6, 8, 9]);

      // Healed: the two come back after the bus's redelivery delay (5 s), and are applied once.
      faults.clear();
      await waitFor(async () => (await drained()) && (await appliedNs()).length === 10, 'every event applied', 30_000);
      await expectAppliedOnce(sent.map((_, n) => n));
    });

    it('holds nothing of a batch whose COMMIT fails, and applies each of its events once when they come again', async () => {
      let open!: () => void;
      gated = { n: 0, open: new Promise<void>((resolve) => (open = resolve)) };
      await publish([envelope(0)]);
      await waitFor(() => attempts.size === 1, 'the first event in hand');
      // These four pile up behind the first and are one batch; the third of them fails that batch's COMMIT.
      faults.set(3, 'commit');
      const batch = [1, 2, 3, 4].map((n) => envelope(n));
      await publish(batch);
      await waitFor(async () => (await consumerInfo()).num_ack_pending === 5, 'the four pulled behind the first');
      await (bus as JetStreamEventBus).connection.flush();
      open();
      await waitFor(() => batch.every((event) => attempts.get(event.id) === 1), 'the batch attempted');
      await waitFor(async () => (await appliedNs()).length === 1 && (await consumerInfo()).num_ack_pending === 4, 'the first committed, the batch not');
      await expectAppliedOnce([0]);

      faults.clear();
      await waitFor(async () => (await drained()) && (await appliedNs()).length === 5, 'every event applied', 30_000);
      await expectAppliedOnce([0, 1, 2, 3, 4]);
      // Each of the four ran twice: in the batch whose COMMIT failed, and once more after it came back.
      expect(batch.map((event) => attempts.get(event.id))).toEqual([2, 2, 2, 2]);
    });
  }
});
