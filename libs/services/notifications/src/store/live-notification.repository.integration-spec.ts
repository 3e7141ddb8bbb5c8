import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { LiveNotificationRepository, type NotificationDraft } from './live-notification.repository';
import { notificationsMigrations } from '../migrations';

const draft = (userId: string, key: string): NotificationDraft => ({ userId, key, type: 'note_added', fromUid: '1', data: {} });

/** One user's `seq` values commit in the order they are taken (what a sync cursor relies on). */
describe('live notification writes for one user (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const notifications = new LiveNotificationRepository();

  beforeAll(async () => {
    database = await createTestDatabase('live_notification_order');
    dataSource = createServiceDataSource({ schema: 'notifications', url: database.url, poolSize: 4, applicationName: 'test', migrations: notificationsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const seqOf = async (key: string) =>
    (await dataSource.query<Array<{ seq: string }>>(`SELECT seq::text FROM notifications.live_notifications WHERE notification_key = $1`, [key]))[0].seq;

  it("makes a second writer for the same user wait for the first to commit, so the user's seqs commit in order", async () => {
    const first = dataSource.createQueryRunner();
    await first.connect();
    await first.startTransaction();
    await notifications.insert(first.manager, [draft('7', 'first')]);

    let secondDone = false;
    const second = dataSource.transaction(async (manager) => {
      await notifications.insert(manager, [draft('7', 'second')]);
      secondDone = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondDone).toBe(false);

    await first.commitTransaction();
    await first.release();
    await second;
    expect(BigInt(await seqOf('second'))).toBeGreaterThan(BigInt(await seqOf('first')));
  });

  it("does not hold up a writer for another user", async () => {
    const first = dataSource.createQueryRunner();
    await first.connect();
    await first.startTransaction();
    await notifications.insert(first.manager, [draft('8', 'held')]);
    await dataSource.transaction((manager) => notifications.insert(manager, [draft('9', 'free')]));
    await first.rollbackTransaction();
    await first.release();
    expect(await seqOf('free')).toMatch(/^[0-9]+$/);
  });
});
