import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { syncMigrations, UserProfileRepository } from '@doable/sync-domain';
import { ReminderFiringRepository } from './reminder-firing.repository';
import { ReminderScheduler } from './reminder-scheduler';

const USER = '9301';

/**
 * The reminder scheduler against a real PostgreSQL: which reminders are due (absolute, relative
 * to a floating or fixed task due, in the user's timezone), that each fires once per due instant
 * with its event in the same transaction, and that two concurrent claimers never fire one twice.
 */
describe('ReminderScheduler: time reminders fire once (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  let inbox: string;
  const repository = new ReminderFiringRepository();
  const scheduler = () => new ReminderScheduler(db, repository, { pollSeconds: 3600 }, createLogger('test', 'silent'));
  const logger = createLogger('test', 'silent');

  /** A task with this due (null: none), answering its id. */
  const task = async (due: Record<string, unknown> | null, checked = false): Promise<string> => {
    const [row] = await dataSource.query<Array<{ id: string }>>(`INSERT INTO sync.items (user_id, project_id, content, due, checked, version) VALUES ($1, $2, 'Task', $3, $4, 1) RETURNING id::text`, [USER, inbox, due === null ? null : JSON.stringify(due), checked]);
    return row.id;
  };
  const reminder = async (itemId: string, fields: { type: 'absolute' | 'relative' | 'location'; due?: Record<string, unknown>; minute_offset?: number }): Promise<string> => {
    const [row] = await dataSource.query<Array<{ id: string }>>(
      `INSERT INTO sync.reminders (project_id, item_id, notify_uid, type, due, minute_offset, version) VALUES ($1, $2, $3, $4, $5, $6, 1) RETURNING id::text`,
      [inbox, itemId, USER, fields.type, fields.due ? JSON.stringify(fields.due) : null, fields.minute_offset ?? null],
    );
    return row.id;
  };
  const fired = () => dataSource.query<Array<{ payload: { reminderId: string; userId: string; dueAt: string; reminder: Record<string, unknown> } }>>(`SELECT payload FROM sync.outbox WHERE subject = 'sync.evt.reminder-fired.v1' ORDER BY id`).then((rows) => rows.map((row) => row.payload));
  /** A due date `minutes` from now: fixed (UTC, with Z) or floating (in the user's timezone). */
  const at = (minutes: number, floating = false): string => {
    const instant = new Date(Date.now() + minutes * 60_000);
    if (!floating) return `${instant.toISOString().slice(0, 19)}Z`;
    // Europe/Helsinki is the user's timezone below; its wall clock, without a zone.
    const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Helsinki', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(instant).map((p) => [p.type, p.value]));
    return `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}:${parts['second']}`;
  };
  const due = (date: string) => ({ date, timezone: null, string: 'x', lang: 'en', is_recurring: false });

  beforeAll(async () => {
    database = await createTestDatabase('reminder_firing');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger, 3_600_000));
    await dataSource.transaction((manager) =>
      new UserProfileRepository().createWithInbox(manager, { id: USER, email: `${USER}@test`, fullName: 'R', timezone: 'Europe/Helsinki', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    [{ inbox }] = await dataSource.query<Array<{ inbox: string }>>(`SELECT inbox_project_id::text AS inbox FROM sync.users WHERE id = $1`, [USER]);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });
  beforeEach(async () => {
    await dataSource.query(`DELETE FROM sync.reminders`);
    await dataSource.query(`DELETE FROM sync.outbox`);
  });

  it('fires the due ones: absolute at their due, relative minute_offset before the task due (fixed or floating in the user timezone)', async () => {
    const absolute = await reminder(await task(null), { type: 'absolute', due: due(at(-1)) });
    const relative = await reminder(await task(due(at(9, true))), { type: 'relative', minute_offset: 10 });
    const relativeFixed = await reminder(await task(due(at(5))), { type: 'relative', minute_offset: 6 });
    // Not due: later, a task without a time, a completed task, a location reminder, a deleted one.
    await reminder(await task(null), { type: 'absolute', due: due(at(30)) });
    await reminder(await task(due(at(5, true))), { type: 'relative', minute_offset: 1 });
    await reminder(await task(due(new Date().toISOString().slice(0, 10))), { type: 'relative', minute_offset: 0 });
    await reminder(await task(due(at(-5)), true), { type: 'relative', minute_offset: 0 });
    await reminder(await task(null), { type: 'location' });
    const deleted = await reminder(await task(null), { type: 'absolute', due: due(at(-1)) });
    await dataSource.query(`UPDATE sync.reminders SET is_deleted = true WHERE id = $1`, [deleted]);

    expect(await scheduler().runOnce()).toBe(3);
    const events = await fired();
    expect(events.map((event) => event.reminderId).sort()).toEqual([absolute, relative, relativeFixed].sort());
    expect(events.find((event) => event.reminderId === absolute)).toMatchObject({ userId: USER, reminder: { id: absolute, type: 'absolute', notify_uid: USER, due: expect.objectContaining({ date: expect.any(String) }) } });
    // Fired once: the next look finds nothing.
    expect(await scheduler().runOnce()).toBe(0);
    expect(await fired()).toHaveLength(3);
  });

  it('fires again for a new due instant (the next occurrence), and marks a long-missed one without announcing it', async () => {
    const itemId = await task(due(at(-2)));
    const id = await reminder(itemId, { type: 'relative', minute_offset: 0 });
    expect(await scheduler().runOnce()).toBe(1);
    await dataSource.query(`UPDATE sync.items SET due = $2 WHERE id = $1`, [itemId, JSON.stringify(due(at(-1)))]);
    expect(await scheduler().runOnce()).toBe(1);
    expect((await fired()).map((event) => event.reminderId)).toEqual([id, id]);
    const late = await reminder(await task(null), { type: 'absolute', due: due(at(-180)) });
    expect(await scheduler().runOnce()).toBe(0);
    const [row] = await dataSource.query<Array<{ fired_for: Date | null }>>(`SELECT fired_for FROM sync.reminders WHERE id = $1`, [late]);
    expect(row.fired_for).not.toBeNull();
  });

  it('says whom to mail for a reminder whose service is email, and not for one whose service is push', async () => {
    const mailed = await reminder(await task(null), { type: 'absolute', due: due(at(-1)) });
    const plain = await reminder(await task(null), { type: 'absolute', due: due(at(-1)) });
    await dataSource.query(`UPDATE sync.reminders SET service = 'email' WHERE id = $1`, [mailed]);
    await dataSource.query(`UPDATE sync.reminders SET service = 'push' WHERE id = $1`, [plain]);
    expect(await scheduler().runOnce()).toBe(2);
    const events = (await fired()) as Array<{ reminderId: string; mail?: unknown }>;
    expect(events.find((event) => event.reminderId === mailed)?.mail).toEqual({ to: `${USER}@test`, lang: 'en', taskContent: 'Task' });
    expect(events.find((event) => event.reminderId === plain)).not.toHaveProperty('mail');
  });

  it('mails a reminder without a service (every current client\'s) as its user\'s reminder_email setting says', async () => {
    const current = await reminder(await task(null), { type: 'absolute', due: due(at(-1)) });
    expect(await scheduler().runOnce()).toBe(1);
    expect(((await fired()) as Array<{ reminderId: string; mail?: unknown }>).find((event) => event.reminderId === current)?.mail).toEqual({ to: `${USER}@test`, lang: 'en', taskContent: 'Task' });

    await dataSource.query(`UPDATE sync.users SET reminder_email = false WHERE id = $1`, [USER]);
    try {
      const quiet = await reminder(await task(null), { type: 'absolute', due: due(at(-1)) });
      const legacyEmail = await reminder(await task(null), { type: 'absolute', due: due(at(-1)) });
      await dataSource.query(`UPDATE sync.reminders SET service = 'email' WHERE id = $1`, [legacyEmail]);
      expect(await scheduler().runOnce()).toBe(2);
      const events = (await fired()) as Array<{ reminderId: string; mail?: unknown }>;
      expect(events.find((event) => event.reminderId === quiet)).not.toHaveProperty('mail');
      // A legacy client's own service still decides for its reminder.
      expect(events.find((event) => event.reminderId === legacyEmail)).toHaveProperty('mail');
    } finally {
      await dataSource.query(`UPDATE sync.users SET reminder_email = true WHERE id = $1`, [USER]);
    }
  });

  it('never fires one reminder twice from two concurrent claimers', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 30; n++) ids.push(await reminder(await task(null), { type: 'absolute', due: due(at(-1 - (n % 5))) }));
    // One claim held open while another runs: the second passes over the locked ones.
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    let held: string[];
    try {
      held = (await repository.claimDue(runner.manager, 10)).map((due) => due.reminder.id);
      expect(await scheduler().runOnce()).toBe(20);
    } finally {
      await runner.commitTransaction();
      await runner.release();
    }
    // Then two whole schedulers racing over what is left: nothing is due twice.
    await dataSource.query(`UPDATE sync.reminders SET fired_for = NULL`);
    await dataSource.query(`DELETE FROM sync.outbox`);
    const [a, b] = await Promise.all([scheduler().runOnce(), scheduler().runOnce()]);
    expect(a + b).toBe(30);
    const events = await fired();
    expect(events).toHaveLength(30);
    expect(new Set(events.map((event) => event.reminderId))).toEqual(new Set(ids));
    expect(held).toHaveLength(10);
  });
});
