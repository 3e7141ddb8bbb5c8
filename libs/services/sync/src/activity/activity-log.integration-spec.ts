import type { EventEnvelope, EventSubject } from '@doable/contracts-common';
import { type ObjectEvent, type ObjectEvents, SyncEvents } from '@doable/contracts-sync';
import { OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { Database, type EventConsumers, type Tx } from '@doable/shared-runtime';
import { PlanLimitsHarness } from '@doable/sync-engine/testing';
import { PlanLimitsRepository } from '@doable/sync-domain';
import { ActivityLogConsumer } from './activity-log.consumer';
import { ActivityLogRepository } from './activity-log.repository';
import { ActivityLogService } from './activity-log.service';

type Handler<P> = (payload: P, tx: Tx, envelope: EventEnvelope<P>) => Promise<void>;
/** A registered handler as the bus calls it: the payload parsed against its event's schema first, as EventConsumers does. */
type Delivery = (payload: unknown, tx: Tx, envelope: EventEnvelope) => Promise<void>;

/**
 * The activity log over real PostgreSQL: the commands' object events go through the consumer
 * (handed the outbox rows as the bus would deliver them, twice to prove it stores each once),
 * then the readers answer who sees what, filtered, paged and within the plan's days.
 */
describe('the activity log (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;
  let database: Database;
  let service: ActivityLogService;
  /** The consumer's handlers by subject: v1 (what a previous release records) and v2 (what the commands record). */
  const handlers = new Map<string, Delivery>();
  const deliverTo = (subject: string, payload: unknown, tx: Tx, envelope: EventEnvelope) => handlers.get(subject)!(payload, tx, envelope);
  const OWNER = '8901';
  const FRIEND = '8902';
  const STRANGER = '8903';
  const FREE = '8904';
  let project = '';
  let task = '';
  let inboxTask = '';

  /** Delivers every outbox object event (v2, a command's changes in one) to the consumer (each twice: a redelivery). */
  async function deliver(): Promise<void> {
    const rows = await harness.dataSource.query<Array<{ event_id: string; payload: ObjectEvents }>>(`SELECT event_id::text, payload FROM sync.outbox WHERE subject = 'sync.evt.object-event.v2' ORDER BY id`);
    expect(await harness.dataSource.query(`SELECT 1 FROM sync.outbox WHERE subject = 'sync.evt.object-event.v1'`)).toEqual([]);
    for (const row of [...rows, ...rows]) {
      await database.transaction((tx) => deliverTo(SyncEvents.objectEvents.name, row.payload, tx, { id: row.event_id, subject: SyncEvents.objectEvents.name, occurredAt: new Date().toISOString(), payload: row.payload }));
    }
  }

  const types = (events: Array<Record<string, unknown>>) => events.map((event) => `${String(event['object_type'])}:${String(event['event_type'])}`);

  beforeAll(async () => {
    harness = await PlanLimitsHarness.start('activity_log');
    const logger = createLogger('test', 'silent');
    database = new Database(harness.dataSource, 'sync', new OutboxRelay(harness.dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const repository = new ActivityLogRepository();
    const on = <P>(_name: string, event: EventSubject<P>, registered: Handler<P>) => {
      handlers.set(event.name, (payload, tx, envelope) => {
        const parsed = event.payload.parse(payload);
        return registered(parsed, tx, { ...envelope, payload: parsed });
      });
    };
    new ActivityLogConsumer({ on } as unknown as EventConsumers, repository);
    service = new ActivityLogService(database, new PlanLimitsRepository(), repository);
    await harness.user(OWNER);
    await harness.user(FRIEND);
    await harness.user(STRANGER);
    await harness.user(FREE, { activity_log: false });

    project = await harness.made(OWNER, 'project_add', { name: 'Shared' });
    task = await harness.made(OWNER, 'item_add', { content: 'Task', project_id: project });
    await harness.one(OWNER, 'item_update', { id: task, content: 'Task 2' });
    await harness.one(OWNER, 'item_update', { id: task, priority: 3 }); // not logged: no logged field changed
    await harness.made(OWNER, 'note_add', { item_id: task, content: 'Note' });
    await harness.one(OWNER, 'item_complete', { id: task });
    inboxTask = await harness.made(OWNER, 'item_add', { content: 'Private' });
    await harness.made(OWNER, 'label_add', { name: 'not-logged' });
    expect(await harness.join(OWNER, project, FRIEND)).toBe('ok');
    await deliver();
  });

  afterAll(() => harness.stop());

  it('stores each logged event once, whatever the redeliveries', async () => {
    expect(await harness.count(`sync.activity_events`)).toBe(7);
    const all = await service.get(OWNER, 'sync-v9', {});
    expect(all.count).toBe(7);
    // Newest first; the priority-only update and the label are not logged.
    expect(types(all.events as Array<Record<string, unknown>>)).toEqual(['project:shared', 'item:added', 'item:completed', 'note:added', 'item:updated', 'item:added', 'project:added']);
  });

  it('shows a shared project\'s events to its members, the initiator\'s private ones to the initiator only, and nothing to a stranger', async () => {
    const friend = (await service.get(FRIEND, 'sync-v9', {})).events as Array<Record<string, unknown>>;
    expect(friend.every((event) => event['parent_project_id'] === project || event['object_id'] === project)).toBe(true);
    expect(friend.map((event) => event['object_id'])).not.toContain(inboxTask);
    expect(types(friend).sort()).toEqual(['item:added', 'item:completed', 'item:updated', 'note:added', 'project:added', 'project:shared'].sort());
    expect(await service.get(STRANGER, 'sync-v9', {})).toEqual({ count: 0, events: [] });
    expect((await service.activities(STRANGER, { object_id: task })).results).toEqual([]);
  });

  it('selects by each filter', async () => {
    const ids = async (params: Record<string, unknown>) => ((await service.get(OWNER, 'sync-v9', params)).events as Array<Record<string, unknown>>).map((event) => `${String(event['object_type'])}:${String(event['event_type'])}:${String(event['object_id'])}`);
    expect(await ids({ object_type: 'item', object_id: task })).toEqual([`item:completed:${task}`, `item:updated:${task}`, `item:added:${task}`]);
    expect((await ids({ event_type: 'added' })).every((entry) => entry.split(':')[1] === 'added')).toBe(true);
    expect(await ids({ object_event_types: '["note:", "project:shared"]' })).toEqual(expect.arrayContaining([`project:shared:${project}`]));
    expect(await ids({ object_event_types: '["note:", "project:shared"]' })).toHaveLength(2);
    expect((await ids({ parent_item_id: task })).map((entry) => entry.split(':')[0])).toEqual(['note']);
    expect(await ids({ parent_project_id: project })).toHaveLength(4);
    expect(await ids({ initiator_id: FRIEND })).toEqual([]);
    expect(await ids({ page: 0 })).toHaveLength(7);
    expect(await ids({ page: 1 })).toEqual([]);
  });

  it('pages by limit and offset (v9), and by cursor (api/v1)', async () => {
    const first = await service.get(OWNER, 'sync-v9', { limit: '3' });
    const rest = await service.get(OWNER, 'sync-v9', { limit: '10', offset: '3' });
    expect(first.count).toBe(7);
    expect(first.events).toHaveLength(3);
    expect(rest.events).toHaveLength(4);
    const all = (await service.get(OWNER, 'sync-v9', {})).events;
    expect([...first.events, ...rest.events]).toEqual(all);

    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { results: unknown[]; next_cursor: string | null } = await service.activities(OWNER, { limit: '3', ...(cursor ? { cursor } : {}) });
      seen.push(...page.results);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('renders v8 and v7 with integer ids and their timestamps', async () => {
    const [v8] = (await service.get(OWNER, 'sync-v8', { limit: 1 })).events as Array<Record<string, unknown>>;
    expect(typeof v8['id']).toBe('number');
    expect(v8['event_date']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const [v7] = (await service.get(OWNER, 'sync-v7', { limit: 1 })).events as Array<Record<string, unknown>>;
    expect(v7['event_date']).toMatch(/^[A-Z][a-z]{2} \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
  });

  it('keeps what the plan allows: older events are not shown to a 7-day plan, and a plan without the log is refused', async () => {
    await harness.dataSource.query(`UPDATE sync.activity_events SET event_date = now() - interval '10 days' WHERE object_type = 'project' AND event_type = 'added'`);
    await harness.plan(FRIEND, { activity_log_limit: 7 });
    expect(types((await service.get(FRIEND, 'sync-v9', {})).events as Array<Record<string, unknown>>)).not.toContain('project:added');
    expect(types((await service.get(OWNER, 'sync-v9', {})).events as Array<Record<string, unknown>>)).toContain('project:added');
    await expect(service.get(FREE, 'sync-v9', {})).rejects.toMatchObject({ code: 'FEATURE_NOT_IN_PLAN', extra: { feature: 'activity_log' } });
  });

  it('refuses bad filter values with a coded error', async () => {
    for (const params of [{ object_type: 'planet' }, { object_id: 'x' }, { limit: '101' }, { page: '-1' }, { object_event_types: '[1]' }, { object_event_types: '{' }, { offset: 'a' }]) {
      await expect(service.get(OWNER, 'sync-v9', params)).rejects.toBeInstanceOf(DomainError);
    }
    for (const params of [{ cursor: 'garbage' }, { date_from: 'yesterday' }, { workspace_id: '0' }, { annotate_notes: 'perhaps' }]) {
      await expect(service.activities(OWNER, params)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT_VALUE' });
    }
  });

  it('logs a v1 event (what a previous release records during a rolling update) once, beside the v2 entries', async () => {
    const event: ObjectEvent = { objectType: 'item', objectId: '99001', eventType: 'added', initiatorId: OWNER, eventDate: new Date().toISOString(), parentProjectId: project, parentItemId: null, workspaceId: null, extraData: { content: 'From v1' } };
    const before = await harness.count('sync.activity_events');
    for (let delivery = 0; delivery < 2; delivery++) {
      await database.transaction((tx) => deliverTo(SyncEvents.objectEvent.name, event, tx, { id: 'v1-event-1', subject: SyncEvents.objectEvent.name, occurredAt: event.eventDate, payload: event }));
    }
    expect(await harness.count('sync.activity_events')).toBe(before + 1);
    // v2 entries are stored under `<envelope id>/<index>`, so they never meet a v1 envelope id.
    expect(await harness.dataSource.query(`SELECT event_id FROM sync.activity_events WHERE event_id NOT LIKE '%/%' ORDER BY id`)).toEqual([{ event_id: 'v1-event-1' }]);
  });

  it('checks the v2 entries it keeps, less the object they carry: an unreadable object or an entry it does not keep does not stop it, an unreadable entry it keeps refuses the event', async () => {
    const entry = (overrides: Record<string, unknown>) => ({ objectType: 'item', objectId: '99101', eventType: 'added', initiatorId: OWNER, eventDate: new Date().toISOString(), parentProjectId: project, parentItemId: null, workspaceId: null, extraData: { content: 'From v2' }, ...overrides });
    const deliverV2 = (id: string, events: unknown[]) =>
      database.transaction((tx) => deliverTo(SyncEvents.objectEvents.name, { events }, tx, { id, subject: SyncEvents.objectEvents.name, occurredAt: new Date().toISOString(), payload: { events } }));
    const before = await harness.count('sync.activity_events');
    // A label (not logged) with unreadable extra data, and a task whose object (never stored here) is not a task: the task is logged.
    await deliverV2('v2-event-1', [entry({ objectType: 'label', objectId: '99102', extraData: 'unreadable' }), entry({ object: 'not a task' })]);
    expect(await harness.dataSource.query(`SELECT event_id, object_id::text FROM sync.activity_events WHERE event_id LIKE 'v2-event-%' ORDER BY id`)).toEqual([{ event_id: 'v2-event-1/1', object_id: '99101' }]);
    // A task it would keep, with a date that is not one: refused whole, as before.
    await expect(deliverV2('v2-event-2', [entry({ objectId: '99103' }), entry({ objectId: '99104', eventDate: 20261129 })])).rejects.toThrow();
    expect(await harness.count('sync.activity_events')).toBe(before + 1);
  });
});
