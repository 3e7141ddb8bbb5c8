import { randomUUID } from 'node:crypto';
import { NotificationsEvents, type LiveNotificationsReply } from '@doable/contracts-notifications';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { InProcessBroker, InProcessEventBus, type ServiceClient } from '@doable/shared-transport';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { CompletionStatsRepository, ItemRepository, LabelRepository, PlanLimitsRepository, ProductivityStatsService, ProjectRepository, syncMigrations, UserProfileRepository } from '@doable/sync-domain';
import { NotificationsDeliveredConsumer } from './notifications-delivered.consumer';
import { decodeSyncToken, MembershipChangesRepository, SyncReader } from '@doable/sync-read';

const [NOTIFIED, OTHER] = ['8101', '8102'];

/**
 * The notifications service answers from its own database; here it is a stand-in that holds
 * the notifications one user has, so the test sees exactly what sync asks and hands on.
 */
class NotificationsStandIn {
  readonly asked: Array<{ userId: string; after: number }> = [];
  notifications: LiveNotificationsReply['live_notifications'] = [];

  request(_subject: unknown, request: { userId: string; after: number }): Promise<LiveNotificationsReply> {
    this.asked.push(request);
    const live = this.notifications.filter((notification) => notification.seq_no > request.after);
    return Promise.resolve({ live_notifications: live, last_read_id: null, cursor: live.length ? live[live.length - 1].seq_no : request.after });
  }
}

describe('notifications delivered: the receivers’ next incremental sync asks for them (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumers: EventConsumers;
  let reader: SyncReader;
  const bus = new InProcessEventBus(new InProcessBroker(), '');
  const notifications = new NotificationsStandIn();
  const position = async (userId: string) =>
    (await dataSource.query<Array<{ high_water: string; notification_mark: string }>>(`SELECT high_water::text, notification_mark::text FROM sync.users WHERE id = $1`, [userId]))[0];
  const deliver = (userIds: string[], id: string = randomUUID()) =>
    bus.publish({ id, subject: NotificationsEvents.delivered.name, occurredAt: new Date().toISOString(), payload: { userIds } });

  beforeAll(async () => {
    database = await createTestDatabase('notifications_delivered');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const id of [NOTIFIED, OTHER]) {
      await dataSource.transaction((manager) =>
        profiles.createWithInbox(manager, { id, email: `${id}@test`, fullName: id, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
      );
    }
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger, 3_600_000));
    // The consumer's durable name is the service's: `sync.mark-notified`.
    consumers = new EventConsumers({ name: 'sync', defaultPort: 0, env: z.object({}), imports: () => [] }, bus, logger, db);
    new NotificationsDeliveredConsumer(consumers, profiles);
    await consumers.start();
    reader = new SyncReader(
      db,
      profiles,
      [],
      notifications as unknown as ServiceClient,
      new ProductivityStatsService(new CompletionStatsRepository(), profiles),
      new ItemRepository(),
      new ProjectRepository(),
      new LabelRepository(),
      new MembershipChangesRepository(),
      new PlanLimitsRepository(),
    );
  });

  afterAll(async () => {
    await consumers.stop();
    await dataSource.destroy();
    await database.drop();
  });

  it('moves the named users’ delivery count, once per event, and no one else’s, without taking a change version', async () => {
    const [notified, other] = [await position(NOTIFIED), await position(OTHER)];
    const eventId = randomUUID();
    await deliver([NOTIFIED, '999999'], eventId);
    const marked = await position(NOTIFIED);
    expect(BigInt(marked.notification_mark)).toBe(BigInt(notified.notification_mark) + 1n);
    // A version taken here could run ahead of one another transaction holds uncommitted.
    expect(marked.high_water).toBe(notified.high_water);
    expect(await position(OTHER)).toEqual(other);

    await deliver([NOTIFIED], eventId);
    expect(await position(NOTIFIED)).toEqual(marked);
  });

  it('opens the gate only for a sync that asks for live notifications, and keeps the delivery for the one that does', async () => {
    const full = await reader.read(NOTIFIED, '*', ['live_notifications']);
    await deliver([NOTIFIED]);
    notifications.asked.length = 0;
    const projectsOnly = await reader.read(NOTIFIED, full.syncToken, ['projects']);
    expect(notifications.asked).toEqual([]);
    await reader.read(NOTIFIED, projectsOnly.syncToken, ['live_notifications']);
    expect(notifications.asked).toHaveLength(1);
  });

  it('lets the next incremental sync carry the new notifications, and the one after it nothing', async () => {
    const full = await reader.read(NOTIFIED, '*', ['live_notifications']);
    expect(full.notifications?.live_notifications).toEqual([]);

    // A notification created after that sync: without the delivered event, the gate stays shut.
    notifications.notifications = [
      { id: '41', created_at: new Date().toISOString(), from_uid: OTHER, notification_key: 'note_added:1:8101', notification_type: 'note_added', seq_no: 41, is_unread: true, is_deleted: false },
    ];
    notifications.asked.length = 0;
    const shut = await reader.read(NOTIFIED, full.syncToken, ['live_notifications']);
    expect(shut.notifications).toBeUndefined();
    expect(notifications.asked).toEqual([]);

    await deliver([NOTIFIED]);
    const opened = await reader.read(NOTIFIED, shut.syncToken, ['live_notifications']);
    expect(notifications.asked).toEqual([{ userId: NOTIFIED, after: 0 }]);
    expect(opened.notifications?.live_notifications.map((notification) => notification.id)).toEqual(['41']);
    expect(decodeSyncToken(NOTIFIED, opened.syncToken).notificationCursor).toBe(41);

    const after = await reader.read(NOTIFIED, opened.syncToken, ['live_notifications']);
    expect(after.notifications).toBeUndefined();
    expect(decodeSyncToken(NOTIFIED, after.syncToken).notificationCursor).toBe(41);
  });
});
