import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthEvents, AuthSubjects } from '@doable/contracts-auth';
import type { EventSubject } from '@doable/contracts-common';
import { type ObjectEvent, SyncEvents, SyncSubjects } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers, type ServiceDefinition } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase, waitFor } from '@doable/shared-testing';
import { InProcessBroker, InProcessEventBus, type ServiceClient } from '@doable/shared-transport';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryWorker, type DeliverySettings } from './delivery-worker';
import { webhooksMigrations } from './migrations';
import { WebhookConsumers } from './webhook.consumers';
import { WebhookRepository } from './webhook.repository';
import { guardedLookup, sendWebhook } from './webhook-sender';
import { webhooksService } from './webhooks.service-definition';

const SECRET = '0123456789abcdef0123456789abcdef';
const OPEN = { allowHttp: true, allowPrivate: true };
const STRICT = { allowHttp: true, allowPrivate: false };

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * The webhooks service against a real PostgreSQL and a real HTTP receiver: the projections of
 * auth-oauth's events, deliveries made from sync's object events, the retry schedule with its
 * stable delivery id, and the address policy at delivery (literals and resolved names). Sync's
 * object reads and auth-oauth's signing answer as those services do (their own specs cover them).
 */
describe('webhooks (real PostgreSQL, real HTTP)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumers: EventConsumers;
  let server: Server;
  let url: string;
  const received: Received[] = [];
  /** POSTs the receiver has begun to read, and how long it waits before it answers. */
  let requestsBegun = 0;
  let answerDelayMs = 0;
  /** What the receiver answers next (then 200). */
  const failures: number[] = [];
  const bus = new InProcessEventBus(new InProcessBroker(), '');
  let db: Database;
  /** The object reads sync was asked for (an event without its own snapshot). */
  const objectReads: string[] = [];

  const services = {
    request: (subject: { name: string }, payload: { body?: string; query?: { resource: string; id?: string } }) => {
      if (subject.name === AuthSubjects.signWebhook.name) return Promise.resolve({ signature: createHmac('sha256', SECRET).update(payload.body!).digest('base64') });
      if (subject.name === SyncSubjects.objects.name && payload.query?.resource === 'user') {
        return Promise.resolve({ objects: [{ id: '101', email: 'ann@example.test', full_name: 'Ann', image_id: null, is_premium: false }], tempIdMapping: {}, hasMore: false });
      }
      objectReads.push(`${payload.query?.resource}:${payload.query?.id}`);
      return Promise.resolve({ objects: [{ id: payload.query?.id, content: 'Buy milk' }], tempIdMapping: {}, hasMore: false });
    },
  } as unknown as ServiceClient;

  const worker = (settings: Partial<DeliverySettings> = {}) =>
    new DeliveryWorker(db, new WebhookRepository(), services, { policy: OPEN, timeoutMs: 2000, retrySeconds: 1, maxRetries: 3, pollMs: 1000, ...settings }, createLogger('test', 'silent'));
  /**
   * The worker the consumers wake. Its poll is an hour, so whatever it sends within a test was
   * sent because it was woken. Started only by the tests about waking (a wake before start is ignored).
   */
  let woken: DeliveryWorker;

  const publish = <P>(subject: EventSubject<P>, payload: P) =>
    bus.publish({ id: randomUUID(), subject: subject.name, occurredAt: new Date().toISOString(), payload });
  const objectEvent = (overrides: Partial<ObjectEvent> = {}): ObjectEvent => ({
    objectType: 'item',
    objectId: '5001',
    eventType: 'added',
    initiatorId: '101',
    eventDate: new Date().toISOString(),
    parentProjectId: '7001',
    parentItemId: null,
    workspaceId: null,
    extraData: { content: 'Buy milk' },
    ...overrides,
  });
  const deliveries = () => dataSource.query<Array<{ delivery_id: string; state: string; attempts: number; user_id: string }>>(`SELECT delivery_id, state, attempts, user_id::text AS user_id FROM webhooks.deliveries ORDER BY created_at`);
  const stamp = () => new Date().toISOString();
  /** Makes the pending deliveries due now (the retry wait has passed). */
  const makeDue = () => dataSource.query(`UPDATE webhooks.deliveries SET next_attempt_at = now() - interval '1 second' WHERE state = 'pending'`);

  beforeAll(async () => {
    database = await createTestDatabase('webhooks_service');
    dataSource = createServiceDataSource({ schema: 'webhooks', url: database.url, poolSize: 4, applicationName: 'test', migrations: webhooksMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const logger = createLogger('test', 'silent');
    db = new Database(dataSource, 'webhooks', new OutboxRelay(dataSource, 'webhooks', { publish: () => Promise.resolve() }, logger, 3_600_000));
    consumers = new EventConsumers(webhooksService as unknown as ServiceDefinition, bus, logger, db);
    woken = worker({ pollMs: 3_600_000 });
    new WebhookConsumers(consumers, new WebhookRepository(), woken);
    await consumers.start();
    server = createServer((request, response) => {
      let body = '';
      requestsBegun++;
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        const status = failures.shift() ?? 200;
        setTimeout(() => response.writeHead(status).end('ignored'), answerDelayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await publish(AuthEvents.appWebhookConfigured, { appId: '1', callbackUrl: url, events: ['item:added', 'item:updated'], version: '1', changedAt: stamp() });
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '101', authorized: true, changedAt: stamp() });
  });

  afterAll(async () => {
    await consumers.stop();
    await new Promise((resolve) => server.close(resolve));
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    received.length = 0;
    failures.length = 0;
    objectReads.length = 0;
    await dataSource.query(`DELETE FROM webhooks.deliveries`);
  });

  it('delivers an event the app wants, authorised by its initiator, signed, with the documented body and headers', async () => {
    await publish(SyncEvents.objectEvent, objectEvent());
    expect(await worker().runOnce()).toBe(1);
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received;
    expect(headers['user-agent']).toBe('Todoist-Webhooks');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-todoist-hmac-sha256']).toBe(createHmac('sha256', SECRET).update(body).digest('base64'));
    expect(headers['x-todoist-delivery-id']).toBe((await deliveries())[0].delivery_id);
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(['event_data', 'event_name', 'initiator', 'triggered_at', 'user_id', 'version']);
    expect(parsed).toMatchObject({ event_name: 'item:added', user_id: '101', event_data: { id: '5001', content: 'Buy milk' }, version: '1' });
    expect(parsed['initiator']).toEqual({ id: '101', email: 'ann@example.test', full_name: 'Ann', image_id: null, is_premium: false });
    expect((await deliveries())[0].state).toBe('delivered');
  });

  it("attempts a delivery once the consumer's transaction has committed, without waiting for the poll", async () => {
    woken.onApplicationBootstrap();
    try {
      await publish(SyncEvents.objectEvent, objectEvent());
      // The poll is an hour away: only the wake after the commit can have sent it.
      await waitFor(async () => (await deliveries())[0]?.state === 'delivered', 'the woken worker to deliver');
      expect(received).toHaveLength(1);
      expect(received[0].headers['x-todoist-delivery-id']).toBe((await deliveries())[0].delivery_id);
    } finally {
      await woken.beforeApplicationShutdown();
    }
  });

  it('a stop waits for the delivery under way and records it, so no replica sends it again after its lease', async () => {
    answerDelayMs = 1_000;
    const before = requestsBegun;
    woken.onApplicationBootstrap();
    try {
      await publish(SyncEvents.objectEvent, objectEvent({ objectId: '7000' }));
      await waitFor(() => requestsBegun > before || undefined, 'the POST to reach the receiver');
      // The receiver answers a second later; the stop returns only after that answer is recorded.
      await woken.beforeApplicationShutdown();
      expect((await deliveries()).map((delivery) => delivery.state)).toEqual(['delivered']);
    } finally {
      answerDelayMs = 0;
    }
  });

  it('a burst of events, more than one look claims, is each delivered once without waiting for the poll', async () => {
    woken.onApplicationBootstrap();
    try {
      // Published together: wakes arrive while a look runs and coalesce; the woken look goes on while it finds full batches.
      await Promise.all(Array.from({ length: 45 }, (_, n) => publish(SyncEvents.objectEvent, objectEvent({ objectId: String(6000 + n) }))));
      await waitFor(async () => (await deliveries()).every((d) => d.state === 'delivered'), 'every delivery of the burst');
      expect(await deliveries()).toHaveLength(45);
      expect(received).toHaveLength(45);
      expect(new Set(received.map((r) => r.headers['x-todoist-delivery-id'])).size).toBe(45);
    } finally {
      await woken.beforeApplicationShutdown();
    }
  });

  it('looks running at once (a wake beside a poll, or two replicas) never send one delivery twice', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, n) => publish(SyncEvents.objectEvent, objectEvent({ objectId: String(7000 + n) }))));
    const [one, other] = [worker(), worker()];
    const claimed = await Promise.all([one.runOnce(), other.runOnce(), one.runOnce(), other.runOnce()]);
    expect(claimed.reduce((sum, n) => sum + n, 0)).toBe(12);
    expect(received).toHaveLength(12);
    expect(new Set(received.map((r) => r.headers['x-todoist-delivery-id'])).size).toBe(12);
    expect((await deliveries()).every((d) => d.state === 'delivered')).toBe(true);
  });

  it('makes no delivery for an event the app did not ask for, nor for a user who did not authorise it', async () => {
    await publish(SyncEvents.objectEvent, objectEvent({ eventType: 'deleted' }));
    await publish(SyncEvents.objectEvent, objectEvent({ initiatorId: '202' }));
    expect(await deliveries()).toEqual([]);
  });

  it('retries a failing receiver with the same delivery id and body, and gives up after the configured retries', async () => {
    failures.push(500, 500);
    await publish(SyncEvents.objectEvent, objectEvent({ eventType: 'updated' }));
    const sender = worker({ maxRetries: 3 });
    await sender.runOnce();
    expect(await sender.runOnce()).toBe(0); // not due again before the retry wait
    await makeDue();
    await sender.runOnce();
    await makeDue();
    await sender.runOnce();
    expect(received.map((r) => r.headers['x-todoist-delivery-id'])).toEqual(Array(3).fill((await deliveries())[0].delivery_id));
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(received[0].body)).toMatchObject({ event_data_extra: { update_intent: 'item_updated' } });
    expect(await deliveries()).toMatchObject([{ state: 'delivered', attempts: 3 }]);

    failures.push(500, 500, 500);
    await publish(SyncEvents.objectEvent, objectEvent());
    const [, second] = await deliveries();
    const brief = worker({ maxRetries: 2 });
    for (let attempt = 0; attempt < 4; attempt++) {
      await makeDue();
      await brief.runOnce();
    }
    expect((await deliveries()).find((d) => d.delivery_id === second.delivery_id)).toMatchObject({ state: 'failed', attempts: 3 });
  });

  it('counts the deliveries waiting, due now or retrying later, and the oldest due one\'s wait (the dashboards\' and alerts\' gauges)', async () => {
    const registry = new Registry();
    new DeliveryMetrics(registry, db);
    const gauges = async () => {
      const metrics = await registry.getMetricsAsJSON();
      const value = (name: string, when?: string) => metrics.find((metric) => metric.name === name)?.values.find((sample) => when === undefined || sample.labels['when'] === when)?.value;
      return { due: value('doable_webhook_deliveries_pending', 'due'), later: value('doable_webhook_deliveries_pending', 'later'), oldest: value('doable_webhook_oldest_due_seconds') };
    };
    expect(await gauges()).toEqual({ due: 0, later: 0, oldest: 0 });
    failures.push(500);
    await publish(SyncEvents.objectEvent, objectEvent({ eventType: 'updated' }));
    await worker({ maxRetries: 3 }).runOnce();
    expect(await gauges()).toEqual({ due: 0, later: 1, oldest: 0 });
    await makeDue();
    const due = await gauges();
    expect(due).toMatchObject({ due: 1, later: 0 });
    expect(due.oldest).toBeGreaterThan(0);
  });

  it('stops deliveries of a user who withdrew the authorisation, and keeps the newest of out-of-order announcements', async () => {
    await publish(SyncEvents.objectEvent, objectEvent());
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '101', authorized: false, changedAt: stamp() });
    expect(await deliveries()).toMatchObject([{ state: 'cancelled' }]);
    expect(await worker().runOnce()).toBe(0);
    // An older "authorised" arriving late changes nothing.
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '101', authorized: true, changedAt: '2000-01-01T00:00:00.000000Z' });
    await publish(SyncEvents.objectEvent, objectEvent());
    expect(await deliveries()).toHaveLength(1);
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '101', authorized: true, changedAt: stamp() });
    expect(received).toEqual([]);
  });

  it('sends the object as of the event from its snapshot, reading nothing; an older event without one is read from sync', async () => {
    await publish(SyncEvents.objectEvent, objectEvent({ object: { id: '5001', content: 'As it was', checked: false } }));
    await worker().runOnce();
    expect(JSON.parse(received[0].body)).toMatchObject({ event_data: { id: '5001', content: 'As it was', checked: false } });
    expect(objectReads).toEqual([]);
    await publish(SyncEvents.objectEvent, objectEvent());
    await worker().runOnce();
    expect(JSON.parse(received[1].body)).toMatchObject({ event_data: { id: '5001', content: 'Buy milk' } });
    expect(objectReads).toEqual(['task:5001']);
  });

  it('sends a completion as item:completed and as item:updated with old_item and update_intent item_completed (reopening: item_uncompleted)', async () => {
    await publish(AuthEvents.appWebhookConfigured, { appId: '1', callbackUrl: url, events: ['item:added', 'item:updated', 'item:completed'], version: '1', changedAt: stamp() });
    const before = { id: '5001', content: 'Buy milk', checked: false };
    const after = { ...before, checked: true };
    await publish(SyncEvents.objectEvent, objectEvent({ eventType: 'completed', object: after, previous: before }));
    await worker().runOnce();
    const bodies = received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.map((b) => b['event_name']).sort()).toEqual(['item:completed', 'item:updated']);
    const updated = bodies.find((b) => b['event_name'] === 'item:updated')!;
    expect(updated).toMatchObject({ event_data: after, event_data_extra: { old_item: before, update_intent: 'item_completed' } });
    expect(bodies.find((b) => b['event_name'] === 'item:completed')).not.toHaveProperty('event_data_extra');
    received.length = 0;
    await publish(SyncEvents.objectEvent, objectEvent({ eventType: 'uncompleted', object: before, previous: after }));
    await worker().runOnce();
    expect(received.map((r) => JSON.parse(r.body) as Record<string, unknown>)).toEqual([expect.objectContaining({ event_name: 'item:updated', event_data_extra: { old_item: after, update_intent: 'item_uncompleted' } })]);
    await publish(AuthEvents.appWebhookConfigured, { appId: '1', callbackUrl: url, events: ['item:added', 'item:updated'], version: '1', changedAt: stamp() });
  });

  it("delivers to every user of the event's audience who authorised the app, each once, as that user", async () => {
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '303', authorized: true, changedAt: stamp() });
    // 202 is a member who did not authorise the app; 303 appears twice.
    await publish(SyncEvents.objectEvent, objectEvent({ initiatorId: '202', audience: ['202', '101', '303', '303'], object: { id: '5001', content: 'Shared' } }));
    expect((await deliveries()).map((d) => d.user_id).sort()).toEqual(['101', '303']);
    await worker().runOnce();
    expect(received.map((r) => (JSON.parse(r.body) as { user_id: string }).user_id).sort()).toEqual(['101', '303']);
    expect(new Set(received.map((r) => r.headers['x-todoist-delivery-id'])).size).toBe(2);
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '303', authorized: false, changedAt: stamp() });
  });

  it('makes from a v2 event (a request\'s changes in one) the deliveries its entries would make as v1 events, in their order', async () => {
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '303', authorized: true, changedAt: stamp() });
    await publish(SyncEvents.objectEvents, {
      events: [
        objectEvent({ objectId: '5101' }),
        // Not wanted by the app (item:deleted): no delivery.
        objectEvent({ objectId: '5102', eventType: 'deleted' }),
        // A completion is also item:updated, which the app wants; 202 did not authorise it, 303 appears twice.
        objectEvent({ objectId: '5103', eventType: 'completed', initiatorId: '202', audience: ['202', '101', '303', '303'] }),
        // No one who authorised the app.
        objectEvent({ objectId: '5104', initiatorId: '404', audience: ['404'] }),
      ],
    });
    const made = await dataSource.query<Array<{ user_id: string; event_name: string; object_id: string }>>(
      `SELECT user_id::text AS user_id, event_name, event->>'objectId' AS object_id FROM webhooks.deliveries ORDER BY created_at, event->>'objectId', user_id`,
    );
    expect(made).toEqual([
      { user_id: '101', event_name: 'item:added', object_id: '5101' },
      { user_id: '101', event_name: 'item:updated', object_id: '5103' },
      { user_id: '303', event_name: 'item:updated', object_id: '5103' },
    ]);
    await worker().runOnce();
    expect(received.map((r) => JSON.parse(r.body) as { event_name: string; user_id: string }).map((body) => `${body.event_name}:${body.user_id}`).sort()).toEqual(['item:added:101', 'item:updated:101', 'item:updated:303']);
    await publish(AuthEvents.appAuthorizationChanged, { appId: '1', userId: '303', authorized: false, changedAt: stamp() });
  });

  it('takes a v2 event that makes no delivery without a transaction (no claim), and claims one that makes some', async () => {
    const claimed = async (id: string) =>
      (await dataSource.query<unknown[]>(`SELECT 1 FROM webhooks.processed_events WHERE consumer = 'webhooks.object-events-v2' AND event_id = $1`, [id])).length;
    const send = async (events: ObjectEvent[]) => {
      const id = randomUUID();
      await bus.publish({ id, subject: SyncEvents.objectEvents.name, occurredAt: stamp(), payload: { events } });
      return id;
    };
    // 404 authorised no app; 101's app does not want item:deleted.
    const nobody = await send([objectEvent({ objectId: '5301', initiatorId: '404', audience: ['404'] }), objectEvent({ objectId: '5302', eventType: 'deleted' })]);
    expect(await claimed(nobody)).toBe(0);
    expect(await deliveries()).toEqual([]);
    const someone = await send([objectEvent({ objectId: '5303' })]);
    expect(await claimed(someone)).toBe(1);
    expect((await deliveries()).map((delivery) => delivery.user_id)).toEqual(['101']);
  });

  it('reads a v2 entry whole only when it makes a delivery: an unreadable one for no app does not stop the others, one for an app refuses the event', async () => {
    const envelope = (events: unknown[]) => bus.publish({ id: randomUUID(), subject: SyncEvents.objectEvents.name, occurredAt: stamp(), payload: { events } });
    // The task is not a task and the date not a date: nobody who authorised an app is concerned (404), so the entry beside it is delivered.
    const unread = { ...objectEvent({ objectId: '5201', initiatorId: '404', audience: ['404'] }), eventDate: 20261129, object: 'not a task' };
    await envelope([unread, objectEvent({ objectId: '5202' })]);
    expect(await dataSource.query(`SELECT event->>'objectId' AS object_id FROM webhooks.deliveries`)).toEqual([{ object_id: '5202' }]);
    await dataSource.query(`DELETE FROM webhooks.deliveries`);
    // The same entry for 101, who authorised the app: refused whole, as before, and nothing of the event delivered.
    await expect(envelope([objectEvent({ objectId: '5203' }), { ...unread, initiatorId: '101', audience: ['101'] }])).rejects.toThrow();
    expect(await deliveries()).toEqual([]);
  });

  it('turns a fired reminder into reminder:fired for the user it notifies, with the reminder as event_data', async () => {
    await publish(AuthEvents.appWebhookConfigured, { appId: '1', callbackUrl: url, events: ['reminder:fired'], version: '1', changedAt: stamp() });
    const reminder = { id: '9001', item_id: '5001', notify_uid: '101', type: 'absolute', due: { date: '2026-11-25T10:00:00Z' }, minute_offset: null, is_deleted: false };
    await publish(SyncEvents.reminderFired, { reminderId: '9001', itemId: '5001', projectId: '7001', userId: '101', dueAt: '2026-11-25T10:00:00.000Z', firedAt: stamp(), reminder });
    await worker().runOnce();
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].body)).toMatchObject({ event_name: 'reminder:fired', user_id: '101', event_data: reminder, initiator: { id: '101' } });
    expect(objectReads).toEqual([]);
    await publish(AuthEvents.appWebhookConfigured, { appId: '1', callbackUrl: url, events: ['item:added', 'item:updated'], version: '1', changedAt: stamp() });
  });

  it('never calls a refused address: a loopback literal, or a name resolving to one (DNS rebinding)', async () => {
    await expect(sendWebhook(url, '{}', {}, { policy: STRICT, timeoutMs: 2000 })).resolves.toMatchObject({ ok: false, status: null });
    const viaName = url.replace('127.0.0.1', 'localhost');
    // Configuration refuses "localhost" by name; a name that resolves to loopback only at delivery is refused by the lookup.
    const lookedUp = await new Promise<Error | null>((resolve) => guardedLookup(STRICT)('localhost', {}, (err) => resolve(err)));
    expect(lookedUp).toMatchObject({ code: 'WEBHOOK_ADDRESS_REFUSED' });
    await expect(sendWebhook(viaName, '{}', {}, { policy: STRICT, timeoutMs: 2000 })).resolves.toMatchObject({ ok: false, status: null });
    await expect(sendWebhook('http://[::ffff:127.0.0.1]:1/x', '{}', {}, { policy: STRICT, timeoutMs: 2000 })).resolves.toMatchObject({ ok: false });
    expect(received).toEqual([]);
    await expect(sendWebhook(url, '{}', {}, { policy: OPEN, timeoutMs: 2000 })).resolves.toMatchObject({ ok: true, status: 200 });
  });

  it('gives up on a receiver that does not answer within the timeout, and does not follow redirects', async () => {
    const silent = createServer(() => undefined);
    const redirecting = createServer((_, response) => response.writeHead(302, { Location: url }).end());
    await Promise.all([silent, redirecting].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
    const at = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;
    await expect(sendWebhook(at(silent), '{}', {}, { policy: OPEN, timeoutMs: 300 })).resolves.toMatchObject({ ok: false, status: null });
    await expect(sendWebhook(at(redirecting), '{}', {}, { policy: OPEN, timeoutMs: 2000 })).resolves.toMatchObject({ ok: false, status: 302 });
    expect(received).toEqual([]);
    silent.closeAllConnections();
    await Promise.all([silent, redirecting].map((s) => new Promise((resolve) => s.close(resolve))));
  });
});
