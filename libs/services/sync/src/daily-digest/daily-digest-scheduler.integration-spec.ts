import type { DailyDigestDue } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { syncMigrations, UserProfileRepository } from '@doable/sync-domain';
import { TaskFilterService } from '@doable/sync-read';
import type { DataSource } from 'typeorm';
import { DailyDigestScheduler } from './daily-digest-scheduler';
import { DailyDigestRepository } from './daily-digest.repository';

const TOKYO = '9401';
const LOS_ANGELES = '9402';
const DIGEST_OFF = '9403';
const BUSY = '9404';
const IDLE = '9405';

/** 10:00 UTC on 10 March 2026: 19:00 in Tokyo (UTC+9), 03:00 in Los Angeles (UTC-7 since 8 March). */
const MORNING_UTC = new Date('2026-03-10T10:00:00Z');

/**
 * The daily digest's scheduler against a real PostgreSQL, on a fixed clock across two
 * timezones: a user is due once their local clock passes 07:00, once per local day however
 * often (or by how many replicas at once) the scheduler looks, and the digest lists the Today
 * view's tasks (due today and overdue, active, in live projects), at most 50 with the total.
 */
describe('DailyDigestScheduler: one digest per user and local day (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  const logger = createLogger('test', 'silent');
  const profiles = new UserProfileRepository();
  const scheduler = () => new DailyDigestScheduler(db, new DailyDigestRepository(), new TaskFilterService(profiles), { pollSeconds: 3600 }, logger);
  const inboxes = new Map<string, string>();

  const user = async (id: string, timezone: string, digest: boolean): Promise<void> => {
    await dataSource.transaction((manager) => profiles.createWithInbox(manager, { id, email: `${id}@test`, fullName: `U${id}`, timezone, lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }));
    if (digest) await dataSource.query(`UPDATE sync.users SET notification_settings = '{"daily_digest": {"email": true}}' WHERE id = $1`, [id]);
    const [{ inbox }] = await dataSource.query<Array<{ inbox: string }>>(`SELECT inbox_project_id::text AS inbox FROM sync.users WHERE id = $1`, [id]);
    inboxes.set(id, inbox);
  };
  const task = async (userId: string, content: string, date: string | null, fields: { checked?: boolean; projectId?: string; priority?: number } = {}): Promise<void> => {
    const due = date === null ? null : JSON.stringify({ date, timezone: null, string: date, lang: 'en', is_recurring: false });
    await dataSource.query(`INSERT INTO sync.items (user_id, project_id, content, due, checked, priority, version) VALUES ($1, $2, $3, $4, $5, $6, 1)`, [
      userId,
      fields.projectId ?? inboxes.get(userId),
      content,
      due,
      fields.checked ?? false,
      fields.priority ?? 1,
    ]);
  };
  const announced = async (): Promise<DailyDigestDue[]> =>
    (await dataSource.query<Array<{ payload: DailyDigestDue }>>(`SELECT payload FROM sync.outbox WHERE subject = 'sync.evt.daily-digest-due.v1' ORDER BY id`)).map((row) => row.payload);

  beforeAll(async () => {
    database = await createTestDatabase('daily_digest');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 6, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger, 3_600_000));
    await user(TOKYO, 'Asia/Tokyo', true);
    await user(LOS_ANGELES, 'America/Los_Angeles', true);
    await user(DIGEST_OFF, 'Asia/Tokyo', false);
    await user(BUSY, 'Asia/Tokyo', true);
    await user(IDLE, 'Asia/Tokyo', true);

    // Tokyo's today is 2026-03-10: listed are today's and the overdue task, with their project.
    const [{ id: garden }] = await dataSource.query<Array<{ id: string }>>(`INSERT INTO sync.projects (owner_id, name, color, child_order, version) VALUES ($1, 'Garden <green>', 'grey', 1, 1) RETURNING id::text`, [TOKYO]);
    await dataSource.query(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'CREATOR', 1)`, [garden, TOKYO]);
    const [{ id: archived }] = await dataSource.query<Array<{ id: string }>>(`INSERT INTO sync.projects (owner_id, name, color, child_order, is_archived, version) VALUES ($1, 'Old', 'grey', 2, true, 1) RETURNING id::text`, [TOKYO]);
    await dataSource.query(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'CREATOR', 1)`, [archived, TOKYO]);
    await task(TOKYO, 'Water the plants', '2026-03-10', { projectId: garden, priority: 4 });
    await task(TOKYO, 'File the taxes', '2026-03-01');
    await task(TOKYO, 'Later', '2026-03-12');
    await task(TOKYO, 'Someday', null);
    await task(TOKYO, 'Done already', '2026-03-10', { checked: true });
    await task(TOKYO, 'In an archived project', '2026-03-10', { projectId: archived });
    await task(DIGEST_OFF, 'Not digested', '2026-03-10');
    await task(LOS_ANGELES, 'Call home', '2026-03-10');
    for (let n = 0; n < 55; n += 1) await task(BUSY, `Chore ${n}`, '2026-03-09');
    await task(IDLE, 'Next week', '2026-03-17');
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('announces the users past 07:00 local once, with the Today view; not the one before 07:00, nor one with the digest off', async () => {
    expect(await scheduler().runOnce(MORNING_UTC)).toBe(2);
    // Looked at again (the same minute, then an hour on): nothing more for the same local day.
    expect(await scheduler().runOnce(MORNING_UTC)).toBe(0);
    expect(await scheduler().runOnce(new Date('2026-03-10T11:00:00Z'))).toBe(0);

    const events = await announced();
    expect(events.map((event) => event.userId)).toEqual([TOKYO, BUSY]);
    expect(events[0]).toEqual({
      userId: TOKYO,
      localDate: '2026-03-10',
      total: 2,
      tasks: [
        { content: 'File the taxes', dueDate: '2026-03-01', dueString: '2026-03-01', projectName: 'Inbox', priority: 1 },
        { content: 'Water the plants', dueDate: '2026-03-10', dueString: '2026-03-10', projectName: 'Garden <green>', priority: 4 },
      ],
    });
    // At most 50 listed, and how many there were.
    expect(events[1]).toMatchObject({ userId: BUSY, total: 55 });
    expect(events[1].tasks).toHaveLength(50);
    // A day with nothing due is marked, not announced: the idle user is not looked at again today.
    const marks = await dataSource.query<Array<{ id: string; sent: string | null }>>(`SELECT id::text, to_char(digest_sent_on, 'YYYY-MM-DD') AS sent FROM sync.users WHERE id = ANY($1::bigint[]) ORDER BY id`, [[TOKYO, LOS_ANGELES, DIGEST_OFF, BUSY, IDLE]]);
    expect(marks).toEqual([
      { id: TOKYO, sent: '2026-03-10' },
      { id: LOS_ANGELES, sent: null },
      { id: DIGEST_OFF, sent: null },
      { id: BUSY, sent: '2026-03-10' },
      { id: IDLE, sent: '2026-03-10' },
    ]);
  });

  it('announces each timezone on its own morning: Los Angeles once 07:00 comes there, Tokyo again on its next local day', async () => {
    await dataSource.query(`DELETE FROM sync.outbox`);
    // 15:00 UTC: 08:00 in Los Angeles; 00:00 on 11 March in Tokyo, before its 07:00. Two replicas look at once.
    const at = new Date('2026-03-10T15:00:00Z');
    const counts = await Promise.all([scheduler().runOnce(at), scheduler().runOnce(at)]);
    expect(counts[0] + counts[1]).toBe(1);
    expect((await announced()).map((event) => [event.userId, event.localDate])).toEqual([[LOS_ANGELES, '2026-03-10']]);

    // 23:00 UTC: 08:00 on 11 March in Tokyo: a new local day, a new digest (today's task is overdue now).
    await dataSource.query(`DELETE FROM sync.outbox`);
    expect(await scheduler().runOnce(new Date('2026-03-10T23:00:00Z'))).toBe(2);
    const [tokyo] = await announced();
    expect(tokyo).toMatchObject({ userId: TOKYO, localDate: '2026-03-11', total: 2 });
  });
});
