import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { syncMigrations, UserProfileRepository } from '@doable/sync-domain';
import { STORED_DUE_DATE } from '@doable/sync-filter-language';
import { TaskFilterService } from './task-filter.service';

/** Wednesday 18 November 2026, 11:00 in Berlin (10:00 UTC): every expectation is measured from here. */
const NOW = new Date('2026-11-18T10:00:00Z');
const ME = '1001';
const BECKY = '1002';
const STRANGER = '1003';

interface SeedTask {
  content: string;
  project: string;
  owner?: string;
  section?: string;
  parent?: string;
  priority?: number;
  due?: { date: string; timezone?: string; is_recurring?: boolean };
  labels?: string[];
  addedAt?: string;
  responsible?: string;
  assignedBy?: string;
  checked?: boolean;
  deleted?: boolean;
}

/**
 * The fixed account. Dues cover every storage form: date-only, floating times (the user's wall
 * clock) and fixed instants (…Z) whose Berlin day differs from their UTC day.
 */
const TASKS: SeedTask[] = [
  { content: 'Write report', project: 'Work', priority: 4, due: { date: '2026-11-18' }, labels: ['Urgent'] },
  { content: 'Team meeting', project: 'Work', section: 'Meetings', priority: 3, due: { date: '2026-11-18T09:00:00' } },
  { content: 'Call client', project: 'Clients', priority: 2, due: { date: '2026-11-19' }, labels: ['waiting'] },
  { content: 'Acme invoice', project: 'Acme', due: { date: '2026-11-10' } },
  { content: 'Plan workshop', project: 'Workshop', priority: 4, labels: ['homework'], addedAt: '2026-11-17T23:30:00Z' },
  { content: 'Water plants', project: 'Home', due: { date: '2026-11-20', is_recurring: true }, labels: ['home'] },
  { content: 'Buy milk', project: 'Inbox', addedAt: '2026-11-01T08:00:00Z' },
  // 23:30 UTC on the 18th is 00:30 on the 19th in Berlin: tomorrow for this user.
  { content: 'Fix sink', project: 'Home', section: 'Kitchen', due: { date: '2026-11-18T23:30:00Z', timezone: 'America/New_York' } },
  { content: 'Subtask of report', project: 'Work', parent: 'Write report', due: { date: '2026-11-23' }, labels: ['home'] },
  { content: 'Assigned to me', project: 'Family', due: { date: '2026-11-25' }, labels: ['waiting'], responsible: ME, assignedBy: BECKY },
  { content: 'Assigned to Becky', project: 'Family', responsible: BECKY, assignedBy: ME },
  { content: 'Family dinner', project: 'Family', due: { date: '2026-11-21T19:00:00' } },
  { content: 'Late evening', project: 'Home', section: 'Meeting notes', due: { date: '2026-11-18T20:00:00' } },
  { content: 'R&D prototype', project: 'R&D', due: { date: '2026-12-01' } },
  { content: 'Yesterday task', project: 'Inbox', due: { date: '2026-11-17' } },
  // Never visible or never active: each would match some query below if the scoping were wrong.
  { content: 'Checked task', project: 'Work', priority: 4, due: { date: '2026-11-18' }, checked: true },
  { content: 'Checked subtask', project: 'Work', parent: 'Write report', due: { date: '2026-11-18' }, checked: true },
  { content: 'Deleted task', project: 'Work', priority: 4, due: { date: '2026-11-18' }, labels: ['home'], deleted: true },
  { content: 'Old archived', project: 'Old', priority: 4, due: { date: '2026-11-18' }, labels: ['home'] },
  { content: 'Becky secret', project: 'Becky private', owner: BECKY, priority: 4, due: { date: '2026-11-18' }, labels: ['home'] },
  { content: 'Stranger work', project: 'Stranger Work', owner: STRANGER, section: 'Meetings', priority: 4, due: { date: '2026-11-10' }, labels: ['home'] },
];

const ALL_ACTIVE = TASKS.slice(0, 15).map((task) => task.content);
const except = (...names: string[]) => ALL_ACTIVE.filter((name) => !names.includes(name));

/** query → the task names of each comma list (sorted here; the service's order is tested separately). */
const CASES: Array<[string, string[][]]> = [
  ['today', [['Write report', 'Team meeting', 'Late evening']]],
  ['tomorrow', [['Call client', 'Fix sink']]],
  ['yesterday', [['Yesterday task']]],
  ['overdue', [['Team meeting', 'Acme invoice', 'Yesterday task']]],
  ['today | overdue', [['Write report', 'Team meeting', 'Late evening', 'Acme invoice', 'Yesterday task']]],
  ['no date', [['Plan workshop', 'Buy milk', 'Assigned to Becky']]],
  ['!no date', [except('Plan workshop', 'Buy milk', 'Assigned to Becky')]],
  ['no time', [['Write report', 'Call client', 'Acme invoice', 'Water plants', 'Subtask of report', 'Assigned to me', 'R&D prototype', 'Yesterday task']]],
  ['next 7 days', [['Write report', 'Team meeting', 'Call client', 'Water plants', 'Fix sink', 'Subtask of report', 'Family dinner', 'Late evening']]],
  ['3 days', [['Write report', 'Team meeting', 'Call client', 'Water plants', 'Fix sink', 'Late evening']]],
  ['-3 days', [['Yesterday task']]],
  ['due before: Nov 19', [['Write report', 'Team meeting', 'Late evening', 'Acme invoice', 'Yesterday task']]],
  ['due before: tomorrow', [['Write report', 'Team meeting', 'Late evening', 'Acme invoice', 'Yesterday task']]],
  ['due before: today at 10am', [['Team meeting', 'Acme invoice', 'Yesterday task']]],
  ['due after: today at 12pm', [['Call client', 'Water plants', 'Fix sink', 'Subtask of report', 'Assigned to me', 'Family dinner', 'Late evening', 'R&D prototype']]],
  ['due after: Nov 24', [['Assigned to me', 'R&D prototype']]],
  ['due after: 6 days', [['Assigned to me', 'R&D prototype']]],
  ['due: Nov 20', [['Water plants']]],
  ['Nov 20', [['Water plants']]],
  ['monday', [['Subtask of report']]],
  ['date: 2026-12-01', [['R&D prototype']]],
  ['p1', [['Write report', 'Plan workshop']]],
  ['p2', [['Team meeting']]],
  ['p3', [['Call client']]],
  ['p4', [except('Write report', 'Plan workshop', 'Team meeting', 'Call client')]],
  ['#Work', [['Write report', 'Team meeting', 'Subtask of report']]],
  ['#WORK', [['Write report', 'Team meeting', 'Subtask of report']]],
  ['##Work', [['Write report', 'Team meeting', 'Subtask of report', 'Call client', 'Acme invoice']]],
  ['##clients', [['Call client', 'Acme invoice']]],
  ['#Work*', [['Write report', 'Team meeting', 'Subtask of report', 'Plan workshop']]],
  ['#*shop', [['Plan workshop']]],
  ['#Inbox', [['Buy milk', 'Yesterday task']]],
  ['#R\\&D', [['R&D prototype']]],
  ['#Nowhere', [[]]],
  ['#Old', [[]]],
  ['#Becky private', [[]]],
  ['/Meetings', [['Team meeting']]],
  ['/meet*', [['Team meeting', 'Late evening']]],
  ['#Work & /Meetings', [['Team meeting']]],
  ['#Home & /Meet*', [['Late evening']]],
  ['/*', [['Team meeting', 'Fix sink', 'Late evening']]],
  ['!/*', [except('Team meeting', 'Fix sink', 'Late evening')]],
  ['@home', [['Water plants', 'Subtask of report']]],
  ['@HOME', [['Water plants', 'Subtask of report']]],
  ['@home*', [['Water plants', 'Subtask of report', 'Plan workshop']]],
  ['@urgent', [['Write report']]],
  ['no labels', [except('Write report', 'Call client', 'Plan workshop', 'Water plants', 'Subtask of report', 'Assigned to me')]],
  ['!no labels', [['Write report', 'Call client', 'Plan workshop', 'Water plants', 'Subtask of report', 'Assigned to me']]],
  ['search: report', [['Write report', 'Subtask of report']]],
  ['search: REPORT & !subtask', [['Write report']]],
  ['search: r\\&d', [['R&D prototype']]],
  ['search: call*client', [['Call client']]],
  ['assigned to: me', [['Assigned to me']]],
  ['assigned to: others', [['Assigned to Becky']]],
  ['assigned to: Becky', [['Assigned to Becky']]],
  ['assigned to: becky smith', [['Assigned to Becky']]],
  ['assigned to: becky@example.com', [['Assigned to Becky']]],
  ['assigned by: me', [['Assigned to Becky']]],
  ['assigned by: others', [['Assigned to me']]],
  ['assigned', [['Assigned to me', 'Assigned to Becky']]],
  ['shared', [['Assigned to me', 'Assigned to Becky', 'Family dinner']]],
  ['recurring', [['Water plants']]],
  ['subtask', [['Subtask of report']]],
  ['#Work & !subtask', [['Write report', 'Team meeting']]],
  ['created before: Nov 10', [['Buy milk']]],
  ['created: today', [['Plan workshop']]],
  ['created after: Nov 16', [['Plan workshop']]],
  ['(today | overdue) & p1', [['Write report']]],
  ['today & !p1', [['Team meeting', 'Late evening']]],
  ['!(today | overdue | no date)', [except('Write report', 'Team meeting', 'Late evening', 'Acme invoice', 'Yesterday task', 'Plan workshop', 'Buy milk', 'Assigned to Becky')]],
  ['view all', [ALL_ACTIVE]],
  ['today, overdue, #Nowhere', [['Write report', 'Team meeting', 'Late evening'], ['Team meeting', 'Acme invoice', 'Yesterday task'], []]],
];

describe('TaskFilterService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const service = new TaskFilterService(new UserProfileRepository());

  beforeAll(async () => {
    database = await createTestDatabase('task_filter');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 2, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    await seed(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const names = async (query: string, lang?: string) => {
    const lists = await service.find(dataSource.manager, ME, query, { now: NOW, lang });
    return lists.map((rows) => rows.map((row) => row.content));
  };

  it.each(CASES)('%s', async (query, expected) => {
    const actual = await names(query);
    expect(actual.map((list) => [...list].sort())).toEqual(expected.map((list) => [...list].sort()));
  });

  it('reads date phrases in the requested language', async () => {
    await expect(names('heute | überfällig', 'de')).rejects.toThrow(/"überfällig" is neither a known filter nor a date/);
    expect((await names('heute & p1', 'de'))[0]).toEqual(['Write report']);
  });

  it('orders each list like a full sync: project, position among siblings, id', async () => {
    const [rows] = await service.find(dataSource.manager, ME, 'today | overdue | #Home', { now: NOW });
    const sorted = [...rows].sort((a, b) => Number(a.project_id) - Number(b.project_id) || a.child_order - b.child_order || Number(a.id) - Number(b.id));
    expect(rows.map((row) => row.id)).toEqual(sorted.map((row) => row.id));
    // Inbox, Work, Acme, Home (project creation order); inside a project by child_order (seeded in reverse).
    expect(rows.map((row) => row.content)).toEqual(['Yesterday task', 'Team meeting', 'Write report', 'Acme invoice', 'Late evening', 'Fix sink', 'Water plants']);
  });

  it('returns the repository row shape', async () => {
    const [[row]] = await service.find(dataSource.manager, ME, 'recurring', { now: NOW });
    expect(row).toMatchObject({ content: 'Water plants', priority: 1, labels: ['home'], checked: false, due: { date: '2026-11-20', is_recurring: true } });
    expect(typeof row.id).toBe('string');
  });

  it('moves "today" with the user timezone', async () => {
    await dataSource.query(`UPDATE sync.users SET timezone = 'America/Los_Angeles' WHERE id = $1`, [ME]);
    try {
      // 02:00 on the 18th in Los Angeles: the fixed 23:30Z due is 15:30 there, today.
      expect((await names('today'))[0].sort()).toEqual(['Fix sink', 'Late evening', 'Team meeting', 'Write report']);
    } finally {
      await dataSource.query(`UPDATE sync.users SET timezone = 'Europe/Berlin' WHERE id = $1`, [ME]);
    }
  });

  it('counts only active members: a departed member leaves a project unshared, and a project left is no #project of theirs', async () => {
    await dataSource.query(`UPDATE sync.project_members SET state = 'deleted' WHERE user_id = $1 AND project_id = (SELECT id FROM sync.projects WHERE name = 'Family')`, [BECKY]);
    try {
      expect((await names('shared'))[0]).toEqual([]);
      const [becky] = await service.find(dataSource.manager, BECKY, '#Family', { now: NOW });
      expect(becky).toEqual([]);
    } finally {
      await dataSource.query(`UPDATE sync.project_members SET state = 'active' WHERE user_id = $1 AND project_id = (SELECT id FROM sync.projects WHERE name = 'Family')`, [BECKY]);
    }
  });

  it('another user sees only their own tasks', async () => {
    const lists = await service.find(dataSource.manager, STRANGER, '#Stranger* | #Work | /Meetings', { now: NOW });
    expect(lists[0].map((row) => row.content)).toEqual(['Stranger work']);
  });

  it.each([
    ['today &', /ends after "&"/],
    ['tday', /"tday" is neither a known filter nor a date/],
    ['(p1', /never closed/],
  ])('%s is an INVALID_ARGUMENT_VALUE for the filter argument', async (query, message) => {
    const error: unknown = await service.find(dataSource.manager, ME, query, { now: NOW }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'filter' } });
    expect((error as DomainError).message).toMatch(message);
  });

  describe('the checked due date (sync.items.due_date_text, migration DueDateText)', () => {
    /** Stored dates of every shape the parsers write, and of shapes they never write (older rows, hand edits). */
    const STORED_DATES = ['2026-11-18', '2026-11-18T09:00:00', '2026-11-18T23:30:00Z', '0001-01-01', '9999-12-31T23:59:59Z', '0000-01-01', '12345-01-01', '2026-13-01', '2026-00-10', '2026-11-32', '2026-11-18T24:00:00', '2026-11-18T09:60:00', '2026-11-18 09:00:00', '2026-11-18T09:00', '2026-11-18T09:00:00+01:00', '2026-11-18T09:00:00.000Z', '2026-1-18', 'soon', '', ' 2026-11-18', '2026-11-18\n'];

    const checkedDate = async (id: string) => (await dataSource.query<Array<{ column: string | null }>>(`SELECT due_date_text AS column FROM sync.items WHERE id = $1`, [id]))[0].column;

    it('holds the due date exactly where it matches STORED_DUE_DATE, the filters\' pattern, and follows an update', async () => {
      const pattern = new RegExp(STORED_DUE_DATE);
      const [{ id }] = await dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.items WHERE content = 'Checked task'`);
      const [{ before }] = await dataSource.query<Array<{ before: unknown }>>(`SELECT due AS before FROM sync.items WHERE id = $1`, [id]);
      try {
        const read: Array<[string, string | null]> = [];
        for (const date of STORED_DATES) {
          await dataSource.query(`UPDATE sync.items SET due = jsonb_build_object('date', $2::text, 'string', 'x') WHERE id = $1`, [id, date]);
          read.push([date, await checkedDate(id)]);
        }
        expect(read).toEqual(STORED_DATES.map((date) => [date, pattern.test(date) ? date : null]));
        await dataSource.query(`UPDATE sync.items SET due = NULL WHERE id = $1`, [id]);
        expect(await checkedDate(id)).toBeNull();
      } finally {
        await dataSource.query(`UPDATE sync.items SET due = $2 WHERE id = $1`, [id, JSON.stringify(before)]);
      }
    });

    it('reads a due of an unstored shape as no date: no date filter fails or matches on it', async () => {
      const [{ id }] = await dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.items WHERE content = 'Buy milk'`);
      try {
        for (const date of ['0000-01-01', '12345-11-18', '2026-11-18T09:00:00+01:00']) {
          await dataSource.query(`UPDATE sync.items SET due = jsonb_build_object('date', $2::text, 'string', 'x', 'is_recurring', false) WHERE id = $1`, [id, date]);
          const [dated, overdue, noTime, before] = await names('today | overdue, overdue, no time, due before: Jan 1 2030');
          expect({ date, lists: [dated, overdue, noTime, before].map((list) => list.includes('Buy milk')) }).toEqual({ date, lists: [false, false, false, false] });
        }
      } finally {
        await dataSource.query(`UPDATE sync.items SET due = NULL WHERE id = $1`, [id]);
      }
    });
  });

  it('an unknown user is USER_NOT_FOUND', async () => {
    await expect(service.find(dataSource.manager, '999', 'today', { now: NOW })).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });

  it('validate() accepts good queries and throws the same errors as find()', () => {
    expect(() => service.validate('today | overdue, #Work & p1')).not.toThrow();
    expect(() => service.validate('#Work &')).toThrow(DomainError);
    expect(() => service.validate('someday')).toThrow(/neither a known filter nor a date/);
  });
});

async function seed(dataSource: DataSource): Promise<void> {
  const profiles = new UserProfileRepository();
  const users: Array<[string, string, string]> = [
    [ME, 'Me Myself', 'me@example.com'],
    [BECKY, 'Becky Smith', 'becky@example.com'],
    [STRANGER, 'Stranger Danger', 'stranger@example.com'],
  ];
  for (const [id, fullName, email] of users) {
    await profiles.createWithInbox(dataSource.manager, { id, email, fullName, timezone: 'Europe/Berlin', lang: 'en', joinedAt: '2026-01-01T00:00:00Z', hasPassword: true, emailVerified: true });
  }
  const [{ version }] = await dataSource.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
  const projectIds = new Map<string, string>();
  const [{ inbox }] = await dataSource.query<Array<{ inbox: string }>>(`SELECT inbox_project_id::text AS inbox FROM sync.users WHERE id = $1`, [ME]);
  projectIds.set('Inbox', inbox);

  const projects: Array<{ name: string; owner?: string; parent?: string; members?: string[]; archived?: boolean }> = [
    { name: 'Work' },
    { name: 'Clients', parent: 'Work' },
    { name: 'Acme', parent: 'Clients' },
    { name: 'Workshop' },
    { name: 'Home' },
    { name: 'Family', members: [BECKY] },
    { name: 'R&D' },
    { name: 'Old', archived: true },
    { name: 'Becky private', owner: BECKY },
    { name: 'Stranger Work', owner: STRANGER },
  ];
  for (const [index, project] of projects.entries()) {
    const owner = project.owner ?? ME;
    const [{ id }] = await dataSource.query<Array<{ id: string }>>(
      `INSERT INTO sync.projects (owner_id, name, parent_id, child_order, is_archived, version) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text`,
      [owner, project.name, project.parent ? projectIds.get(project.parent) : null, index + 1, project.archived ?? false, version],
    );
    projectIds.set(project.name, id);
    for (const member of [owner, ...(project.members ?? [])]) {
      await dataSource.query(`INSERT INTO sync.project_members (project_id, user_id) VALUES ($1, $2)`, [id, member]);
    }
  }

  const sectionIds = new Map<string, string>();
  for (const [project, name] of [['Work', 'Meetings'], ['Home', 'Kitchen'], ['Home', 'Meeting notes'], ['Stranger Work', 'Meetings']]) {
    const [{ id, user_id }] = await dataSource.query<Array<{ id: string; user_id: string }>>(
      `INSERT INTO sync.sections (user_id, project_id, name, version) SELECT owner_id, id, $2, $3 FROM sync.projects WHERE id = $1 RETURNING id::text, user_id::text`,
      [projectIds.get(project), name, version],
    );
    sectionIds.set(`${user_id}/${name}`, id);
  }

  const itemIds = new Map<string, string>();
  for (const [index, task] of TASKS.entries()) {
    const owner = task.owner ?? ME;
    const due = task.due ? { date: task.due.date, timezone: task.due.timezone ?? null, string: task.due.date, lang: 'en', is_recurring: task.due.is_recurring ?? false } : null;
    const [{ id }] = await dataSource.query<Array<{ id: string }>>(
      `INSERT INTO sync.items (user_id, project_id, section_id, parent_id, content, priority, due, labels, child_order, checked, is_deleted,
                               added_by_uid, assigned_by_uid, responsible_uid, added_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $1, $12, $13, $14, $15) RETURNING id::text`,
      [
        owner,
        projectIds.get(task.project),
        task.section ? sectionIds.get(`${owner}/${task.section}`) : null,
        task.parent ? itemIds.get(task.parent) : null,
        task.content,
        task.priority ?? 1,
        due === null ? null : JSON.stringify(due),
        task.labels ?? [],
        // Reverse insertion order, so the expected order is not simply the id order.
        100 - index,
        task.checked ?? false,
        task.deleted ?? false,
        task.assignedBy ?? null,
        task.responsible ?? null,
        task.addedAt ?? '2026-11-15T10:00:00Z',
        version,
      ],
    );
    itemIds.set(task.content, id);
  }
}
