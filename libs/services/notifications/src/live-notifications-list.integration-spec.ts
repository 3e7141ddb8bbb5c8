import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { CommandLogRepository } from './command-log.repository';
import { LiveNotificationsService } from './live-notifications.service';
import { notificationsMigrations } from './migrations';

/**
 * What a sync read gets after its token's cursor: every notification changed since, in change
 * order, and the cursor of the last one. Issue #45: ordered by the text of `seq`, a user whose
 * changes crossed 99 -> 100 got a cursor short of its last change, and the next read sent a
 * notification again.
 */
describe('live notifications listed after a cursor (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let service: LiveNotificationsService;

  beforeAll(async () => {
    database = await createTestDatabase('live_notifications_list');
    dataSource = createServiceDataSource({ schema: 'notifications', url: database.url, poolSize: 2, applicationName: 'test', migrations: notificationsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const db = new Database(dataSource, 'notifications', new OutboxRelay(dataSource, 'notifications', { publish: () => Promise.resolve() }, createLogger('test', 'silent'), 3_600_000));
    service = new LiveNotificationsService(db, new CommandLogRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('orders by the change sequence as a number, so the cursor is the last change when seq passes a power of ten', async () => {
    // The next four changes take 98, 99, 100 and 101.
    await dataSource.query(`SELECT setval('notifications.change_seq', 97)`);
    for (const key of ['a', 'b', 'c', 'd']) {
      await dataSource.query(`INSERT INTO notifications.live_notifications (user_id, notification_key, notification_type, data) VALUES (700, $1, 'note_added', '{}')`, [key]);
    }
    const all = await service.list('700', 0);
    expect(all.live_notifications.map((notification) => notification.notification_key)).toEqual(['a', 'b', 'c', 'd']);
    expect(all.cursor).toBe(101);
    // Nothing changed since: nothing is sent again.
    expect((await service.list('700', all.cursor)).live_notifications).toEqual([]);
    expect((await service.list('700', 99)).live_notifications.map((notification) => notification.notification_key)).toEqual(['c', 'd']);
  });
});
