import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@doable/contracts-common';
import { NotificationsEvents } from '@doable/contracts-notifications';
import { SyncEvents, type WorkspacePlanTypeChanged } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { InProcessBroker, InProcessEventBus } from '@doable/shared-transport';
import type { DataSource } from 'typeorm';
import { LiveNotificationRepository } from '../src/store/live-notification.repository';
import { notificationsMigrations } from '../src/migrations';
import { notificationsService } from '../src/notifications.service-definition';
import { workspacePlanProducers } from '../src/producers/workspace-plan.producers';

const [ADA, BEN, CY] = ['101', '102', '103'];

/** teams_workspace_upgraded / teams_workspace_canceled from sync's workspacePlanTypeChanged (real PostgreSQL). */
describe('workspace plan notifications (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumers: EventConsumers;
  const bus = new InProcessEventBus(new InProcessBroker(), '');

  const publish = async (change: WorkspacePlanTypeChanged, envelope?: EventEnvelope): Promise<EventEnvelope> => {
    const sent = envelope ?? { id: randomUUID(), subject: SyncEvents.workspacePlanTypeChanged.name, occurredAt: new Date().toISOString(), payload: change };
    await bus.publish(sent);
    return sent;
  };
  const change = (overrides: Partial<WorkspacePlanTypeChanged> = {}): WorkspacePlanTypeChanged => ({
    workspaceId: '8800000001',
    workspaceName: 'Acme',
    planType: 'BUSINESS',
    previousPlanType: 'STARTER',
    revision: '41',
    memberIds: [ADA, BEN],
    ...overrides,
  });
  const notificationsOf = (userId: string) =>
    dataSource.query<Array<{ notification_key: string; notification_type: string; from_uid: string; data: Record<string, unknown> }>>(
      `SELECT notification_key, notification_type, from_uid::text, data FROM notifications.live_notifications WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
  const delivered = async () =>
    (await dataSource.query<Array<{ payload: { userIds: string[] } }>>(`SELECT payload FROM notifications.outbox WHERE subject = $1 ORDER BY id`, [NotificationsEvents.delivered.name])).map(
      (row) => row.payload.userIds,
    );

  beforeAll(async () => {
    database = await createTestDatabase('workspace_plan_notifications');
    dataSource = createServiceDataSource({ schema: 'notifications', url: database.url, poolSize: 4, applicationName: 'test', migrations: notificationsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'notifications', new OutboxRelay(dataSource, 'notifications', { publish: () => Promise.resolve() }, logger, 3_600_000));
    consumers = new EventConsumers(notificationsService, bus, logger, db);
    const notifications = new LiveNotificationRepository();
    // Registered as NotificationProducersConsumer registers every producer.
    workspacePlanProducers(
      (name, event, produce) =>
        consumers.on(name, event, async (payload, tx, envelope) => {
          const userIds = [...new Set(await produce(payload, tx, envelope.id))].sort();
          if (userIds.length > 0) await tx.emit(NotificationsEvents.delivered, { userIds });
        }),
      notifications,
    );
    await consumers.start();
  });

  afterAll(async () => {
    await consumers.stop();
    await dataSource.destroy();
    await database.drop();
  });

  it('tells each admin and member of an upgrade to BUSINESS with the workspace and the new plan type', async () => {
    const envelope = await publish(change());
    for (const userId of [ADA, BEN]) {
      expect(await notificationsOf(userId)).toEqual([
        {
          notification_key: `teams_workspace_upgraded:8800000001:41:${userId}`,
          notification_type: 'teams_workspace_upgraded',
          from_uid: userId,
          data: { workspace_id: 8800000001, workspace_name: 'Acme', plan_type: 'BUSINESS' },
        },
      ]);
    }
    expect(await notificationsOf(CY)).toEqual([]);
    expect(await delivered()).toEqual([[ADA, BEN]]);

    // The same event delivered again, and a second event for the same change, make nothing more.
    await publish(change(), envelope);
    await publish(change());
    expect(await notificationsOf(ADA)).toHaveLength(1);
    expect(await delivered()).toHaveLength(1);
  });

  it('tells of a cancellation (back to STARTER) as its own notification', async () => {
    await publish(change({ planType: 'STARTER', previousPlanType: 'BUSINESS', revision: '42', memberIds: [ADA] }));
    expect((await notificationsOf(ADA)).map((row) => [row.notification_type, row.data['plan_type']])).toEqual([
      ['teams_workspace_upgraded', 'BUSINESS'],
      ['teams_workspace_canceled', 'STARTER'],
    ]);
    expect(await notificationsOf(BEN)).toHaveLength(1);
  });

  it('makes nothing for a workspace with no admins or members left', async () => {
    const before = (await delivered()).length;
    await publish(change({ revision: '43', memberIds: [] }));
    expect((await delivered()).length).toBe(before);
  });
});
