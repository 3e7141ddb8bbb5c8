import type { LiveNotificationCommand } from '@doable/contracts-notifications';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { CommandLogRetention, Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { CommandLogRepository } from './command-log.repository';
import { lockNotificationsOf } from './store/live-notification.repository';
import { LiveNotificationsService } from './live-notifications.service';
import { notificationsMigrations } from './migrations';
import { NotificationsRpcController } from './notifications.service-definition';

const markUnread = (id: string): LiveNotificationCommand => ({ type: 'live_notifications_mark_unread', args: { ids: [id] } });
const markRead = (id: string): LiveNotificationCommand => ({ type: 'live_notifications_mark_read', args: { ids: [id] } });
const setLastRead = (id: string): LiveNotificationCommand => ({ type: 'live_notifications_set_last_read', args: { id } });

/**
 * Sync resends a request whose replica fell silent; both copies may pass sync's own command log
 * before either commits, so both reach this service, and the late one may arrive after the
 * user's next commands. A command carrying its uuid runs once, whenever its copies arrive.
 */
describe('live-notification commands run once per uuid (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  let controller: NotificationsRpcController;

  beforeAll(async () => {
    database = await createTestDatabase('live_notification_commands');
    // The lock holder, three queued commands and the test's own reads.
    dataSource = createServiceDataSource({ schema: 'notifications', url: database.url, poolSize: 6, applicationName: 'test', migrations: notificationsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    // The relay never runs here: these commands emit no events.
    db = new Database(dataSource, 'notifications', new OutboxRelay(dataSource, 'notifications', { publish: () => Promise.resolve() }, createLogger('test', 'silent'), 3_600_000));
    controller = new NotificationsRpcController(new LiveNotificationsService(db, new CommandLogRepository()));
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function notify(userId: string, key: string): Promise<string> {
    const [row] = await dataSource.query<Array<{ id: string }>>(
      `INSERT INTO notifications.live_notifications (user_id, notification_key, notification_type, data) VALUES ($1, $2, 'note_added', '{}') RETURNING id::text`,
      [userId, `${key}-${userId}`],
    );
    return row.id;
  }

  const state = async (userId: string) =>
    (await dataSource.query<Array<{ id: string; is_unread: boolean; seq: string }>>(`SELECT id::text, is_unread, seq::text FROM notifications.live_notifications WHERE user_id = $1 ORDER BY id`, [userId])).map(
      (row) => ({ id: row.id, unread: row.is_unread, seq: row.seq }),
    );
  /** Waits until this many transactions of this database wait for an advisory lock (the user's). */
  async function waitForLockWaiters(count: number): Promise<void> {
    for (;;) {
      const [{ waiting }] = await dataSource.query<Array<{ waiting: number }>>(
        `SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      if (waiting >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const lastReadOf = async (userId: string) =>
    (await dataSource.query<Array<{ last_read_id: string | null }>>(`SELECT last_read_id::text FROM notifications.read_state WHERE user_id = $1`, [userId]))[0]?.last_read_id;

  it('changes nothing when a copy of a command arrives after a later command, and answers ok', async () => {
    const [first, second] = [await notify('501', 'first'), await notify('501', 'second')];
    await expect(controller.liveNotificationCommand({ userId: '501', uuid: 'unread-first', command: markUnread(first) })).resolves.toEqual({ ok: true });
    await expect(controller.liveNotificationCommand({ userId: '501', uuid: 'last-read-second', command: setLastRead(second) })).resolves.toEqual({ ok: true });
    const before = await state('501');
    expect(before.map(({ id, unread }) => ({ id, unread }))).toEqual([
      { id: first, unread: false },
      { id: second, unread: false },
    ]);

    // The resent request's late copy of the first command.
    await expect(controller.liveNotificationCommand({ userId: '501', uuid: 'unread-first', command: markUnread(first) })).resolves.toEqual({ ok: true });

    // Not unread again, and no new seq: an incremental sync sees no change.
    expect(await state('501')).toEqual(before);
    expect(await lastReadOf('501')).toBe(second);
  });

  it('runs a command once when both copies are in flight and a later command gets in between them', async () => {
    const [only] = [await notify('502', 'only')];
    // Hold the user's lock, then queue behind it (PostgreSQL grants it in turn): the first copy,
    // the user's next command, the late copy. As two replicas' calls and the client's next request would.
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await lockNotificationsOf(holder.manager, ['502']);
    const queued: Array<Promise<{ ok: true }>> = [];
    for (const [uuid, command] of [
      ['unread-only', markUnread(only)],
      ['read-only', markRead(only)],
      ['unread-only', markUnread(only)],
    ] as const) {
      queued.push(controller.liveNotificationCommand({ userId: '502', uuid, command }));
      await waitForLockWaiters(queued.length);
    }
    await holder.commitTransaction();
    await holder.release();

    await expect(Promise.all(queued)).resolves.toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect((await state('502')).map(({ unread }) => unread)).toEqual([false]);
    const logged = await dataSource.query<Array<{ uuid: string }>>(`SELECT uuid FROM notifications.command_log WHERE user_id = $1 ORDER BY uuid`, ['502']);
    expect(logged.map((row) => row.uuid)).toEqual(['read-only', 'unread-only']);
  });

  it("keeps one user's uuids apart from another's", async () => {
    const [mine, theirs] = [await notify('503', 'mine'), await notify('504', 'theirs')];
    await controller.liveNotificationCommand({ userId: '503', uuid: 'same-uuid', command: setLastRead(mine) });
    await controller.liveNotificationCommand({ userId: '504', uuid: 'same-uuid', command: setLastRead(theirs) });
    expect([await lastReadOf('503'), await lastReadOf('504')]).toEqual([mine, theirs]);
  });

  it('runs a command without a uuid every time it arrives, as callers that predate the uuid expect', async () => {
    const [first, second] = [await notify('505', 'first'), await notify('505', 'second')];
    await controller.liveNotificationCommand({ userId: '505', command: markUnread(first) });
    await controller.liveNotificationCommand({ userId: '505', command: setLastRead(second) });
    await controller.liveNotificationCommand({ userId: '505', command: markUnread(first) });
    expect((await state('505')).map(({ id, unread }) => ({ id, unread }))).toEqual([
      { id: first, unread: true },
      { id: second, unread: false },
    ]);
  });

  it('forgets uuids older than the retention, in batches, and keeps the recent ones', async () => {
    await dataSource.query(
      `INSERT INTO notifications.command_log (user_id, uuid, executed_at)
       SELECT 600, 'old-' || n, now() - interval '31 days' FROM generate_series(1, 5100) n
       UNION ALL SELECT 600, 'recent', now() - interval '29 days'
       UNION ALL SELECT 601, 'today', now()`,
    );
    const retention = new CommandLogRetention(db, 'notifications.command_log', 30, createLogger('test', 'silent'));
    // More than one batch of expired rows: the loop must go round until none are left.
    await expect(retention.prune()).resolves.toBe(5100);
    const left = await dataSource.query<Array<{ uuid: string }>>(`SELECT uuid FROM notifications.command_log WHERE user_id IN (600, 601) ORDER BY uuid`);
    expect(left.map((row) => row.uuid)).toEqual(['recent', 'today']);
    await expect(retention.prune()).resolves.toBe(0);
  });
});
