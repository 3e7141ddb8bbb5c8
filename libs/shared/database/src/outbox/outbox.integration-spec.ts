import { type EventEnvelope, eventSubject } from '@doable/contracts-common';
import { createLogger } from '@doable/shared-logging';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { createServiceDataSource } from '../data-source';
import { migrateUp } from '../migrate';
import { messagingTablesDown, messagingTablesUp, outboxTraceContextUp } from '../migrations/messaging-tables';
import { OutboxRelay, type EventPublisher, type PublishOutcome } from './outbox-relay';
import { OutboxWriter } from './outbox-writer';
import { claimEvent } from './processed-events';
import { pruneMessagingTables } from './messaging-retention';

const SCHEMA = 'outbox_test';

class CreateMessagingTables1700000000000 implements MigrationInterface {
  name = 'CreateMessagingTables1700000000000';
  async up(queryRunner: QueryRunner) {
    for (const sql of [`CREATE TABLE ${SCHEMA}.things (id int PRIMARY KEY)`, ...messagingTablesUp(SCHEMA), ...outboxTraceContextUp(SCHEMA)]) await queryRunner.query(sql);
  }
  async down(queryRunner: QueryRunner) {
    for (const sql of [...messagingTablesDown(SCHEMA), `DROP TABLE ${SCHEMA}.things`]) await queryRunner.query(sql);
  }
}

const thingCreated = eventSubject('test.evt.thing-created.v1', z.object({ id: z.number() }));

class RecordingPublisher implements EventPublisher {
  readonly published: EventEnvelope[] = [];
  failuresLeft = 0;
  publish(envelope: EventEnvelope): Promise<void> {
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      return Promise.reject(new Error('broker down'));
    }
    this.published.push(envelope);
    return Promise.resolve();
  }
}

describe('transactional outbox (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const writer = new OutboxWriter(SCHEMA);
  const logger = createLogger('test', 'silent');

  beforeAll(async () => {
    database = await createTestDatabase('outbox');
    dataSource = createServiceDataSource({ schema: SCHEMA, url: database.url, poolSize: 4, applicationName: 'test', migrations: [CreateMessagingTables1700000000000] });
    await dataSource.initialize();
    await migrateUp(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    await dataSource.query(`TRUNCATE ${SCHEMA}.outbox, ${SCHEMA}.things, ${SCHEMA}.processed_events`);
  });

  const createThing = (id: number) =>
    dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO ${SCHEMA}.things (id) VALUES ($1)`, [id]);
      await writer.enqueue(manager, thingCreated, { id });
    });

  it('publishes an event exactly when its transaction commits', async () => {
    const publisher = new RecordingPublisher();
    await createThing(1);
    await dataSource
      .transaction(async (manager) => {
        await writer.enqueue(manager, thingCreated, { id: 2 });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const relay = new OutboxRelay(dataSource, SCHEMA, publisher, logger);
    await expect(relay.drain()).resolves.toBe(1);
    expect(publisher.published).toEqual([{ id: expect.any(String), subject: thingCreated.name, occurredAt: expect.any(String), payload: { id: 1 } }]);
    await expect(relay.drain()).resolves.toBe(0);
  });

  it('refuses a payload that does not match the event schema, inside the transaction', async () => {
    await expect(dataSource.transaction((manager) => writer.enqueue(manager, thingCreated, { id: 'x' } as unknown as { id: number }))).rejects.toThrow();
    const [{ count }] = await dataSource.query<Array<{ count: string }>>(`SELECT count(*) FROM ${SCHEMA}.outbox`);
    expect(count).toBe('0');
  });

  it('keeps an event whose publication failed and publishes it on the next pass', async () => {
    const publisher = new RecordingPublisher();
    publisher.failuresLeft = 1;
    await createThing(3);
    const relay = new OutboxRelay(dataSource, SCHEMA, publisher, logger);
    await expect(relay.drain()).rejects.toThrow('broker down');
    const [row] = await dataSource.query<Array<{ published_at: Date | null; claimed_until: Date | null }>>(`SELECT published_at, claimed_until FROM ${SCHEMA}.outbox`);
    expect(row).toEqual({ published_at: null, claimed_until: null });
    await expect(relay.drain()).resolves.toBe(1);
    expect(publisher.published.map((event) => event.payload)).toEqual([{ id: 3 }]);
  });

  it('hands a publisher that takes batches its rows at once; marks the done ones, releases the others and ends the pass', async () => {
    for (const id of [90, 91, 92, 93]) await createThing(id);
    const calls: number[][] = [];
    let refuse = 92;
    const publisher: EventPublisher = {
      publish: () => Promise.reject(new Error('the relay publishes batches')),
      publishAll: (envelopes) => {
        const ids = envelopes.map((event) => (event.payload as { id: number }).id);
        calls.push(ids);
        return Promise.resolve(ids.map((id): PublishOutcome => (id === refuse ? { done: false, error: new Error('a consumer failed it') } : { done: true })));
      },
    };
    const relay = new OutboxRelay(dataSource, SCHEMA, publisher, logger);
    // Not asked again in a loop: the pass ends, and the next one (the relay's poll) tries again.
    await expect(relay.drain()).rejects.toThrow('1 of 4 events not published');
    expect(calls).toEqual([[90, 91, 92, 93]]);
    const rows = await dataSource.query<Array<{ id: string; published: boolean; claimed: boolean }>>(
      `SELECT payload->>'id' AS id, published_at IS NOT NULL AS published, claimed_until IS NOT NULL AS claimed FROM ${SCHEMA}.outbox ORDER BY 1`,
    );
    expect(rows).toEqual([
      { id: '90', published: true, claimed: true },
      { id: '91', published: true, claimed: true },
      { id: '92', published: false, claimed: false },
      { id: '93', published: true, claimed: true },
    ]);
    refuse = 0;
    await expect(relay.drain()).resolves.toBe(1);
    expect(calls).toEqual([[90, 91, 92, 93], [92]]);
  });

  it('lets several relays share the work without publishing an event twice', async () => {
    for (let id = 10; id < 60; id++) await createThing(id);
    const publisher = new RecordingPublisher();
    const relays = [1, 2, 3].map(() => new OutboxRelay(dataSource, SCHEMA, publisher, logger));
    await Promise.all(relays.map((relay) => relay.drain()));
    const ids = publisher.published.map((event) => (event.payload as { id: number }).id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, index) => index + 10));
  });

  it('publishes in commit order within one relay', async () => {
    for (const id of [70, 71, 72]) await createThing(id);
    const publisher = new RecordingPublisher();
    await new OutboxRelay(dataSource, SCHEMA, publisher, logger).drain();
    expect(publisher.published.map((event) => (event.payload as { id: number }).id)).toEqual([70, 71, 72]);
  });

  it('claims an event for a consumer once (idempotent consumers)', async () => {
    const eventId = '7f3f7e5e-6a55-4bb4-9a57-1c38a0a8a0a1';
    const first = await dataSource.transaction((manager) => claimEvent(manager, SCHEMA, 'consumer-a', eventId));
    const again = await dataSource.transaction((manager) => claimEvent(manager, SCHEMA, 'consumer-a', eventId));
    const otherConsumer = await dataSource.transaction((manager) => claimEvent(manager, SCHEMA, 'consumer-b', eventId));
    expect([first, again, otherConsumer]).toEqual([true, false, true]);
  });

  it('prunes only expired rows: old published events and old handled marks', async () => {
    await createThing(80);
    await createThing(81);
    await createThing(82);
    await new OutboxRelay(dataSource, SCHEMA, new RecordingPublisher(), logger).drain();
    await createThing(83); // not yet published: kept whatever its age
    await dataSource.query(`UPDATE ${SCHEMA}.outbox SET occurred_at = now() - interval '30 days', published_at = now() - interval '2 days' WHERE payload->>'id' IN ('80', '81')`);
    await dataSource.query(`UPDATE ${SCHEMA}.outbox SET occurred_at = now() - interval '30 days' WHERE payload->>'id' = '83'`);
    await dataSource.transaction((manager) => claimEvent(manager, SCHEMA, 'consumer-a', '11111111-1111-4111-8111-111111111111'));
    await dataSource.transaction((manager) => claimEvent(manager, SCHEMA, 'consumer-a', '22222222-2222-4222-8222-222222222222'));
    await dataSource.query(`UPDATE ${SCHEMA}.processed_events SET processed_at = now() - interval '15 days' WHERE event_id = '11111111-1111-4111-8111-111111111111'`);

    await expect(pruneMessagingTables(dataSource, SCHEMA)).resolves.toEqual({ outbox: 2, processedEvents: 1 });
    const left = await dataSource.query<Array<{ id: string }>>(`SELECT payload->>'id' AS id FROM ${SCHEMA}.outbox ORDER BY 1`);
    expect(left.map((row) => row.id)).toEqual(['82', '83']);
    const marks = await dataSource.query<Array<{ event_id: string }>>(`SELECT event_id FROM ${SCHEMA}.processed_events`);
    expect(marks).toEqual([{ event_id: '22222222-2222-4222-8222-222222222222' }]);
  });

  it('forgets a claim whose transaction rolled back (the event will be handled on redelivery)', async () => {
    const eventId = '0b6c8f3e-2a7e-4d7b-8d55-9a3c1c6e2b11';
    await dataSource
      .transaction(async (manager) => {
        await claimEvent(manager, SCHEMA, 'consumer-a', eventId);
        throw new Error('handler failed');
      })
      .catch(() => undefined);
    await expect(dataSource.transaction((manager) => claimEvent(manager, SCHEMA, 'consumer-a', eventId))).resolves.toBe(true);
  });
});
