import { OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { PlanLimitsHarness, principalOf } from '@doable/sync-engine/testing';
import { AccountImporter } from './account-importer';
import { snapshotOfFullSync } from './full-sync-snapshot';

/** A full sync as the hosted api/v1 answers it (trimmed to what an import reads, plus keys it ignores). */
function hostedFullSync() {
  return {
    sync_token: 'abc',
    full_sync: true,
    user: { id: '9', full_name: 'Someone' },
    projects: [
      { id: '6X7rM8997g3RQmvh', name: 'Inbox', inbox_project: true, color: 'grey', child_order: 0, parent_id: null },
      { id: '6Jf8VQXxpwv56VQ7', name: 'Work', color: 'berry_red', child_order: 1, parent_id: null, view_style: 'board', is_favorite: true },
      { id: '6Jf8VQXxpwv56VQ8', name: 'Work › Hiring', color: 35, child_order: 0, parent_id: '6Jf8VQXxpwv56VQ7' },
      { id: '6Jf8VQXxpwv56VQ9', name: 'Old stuff', color: 'grey', child_order: 2, is_archived: true },
      { id: 'gone', name: 'Deleted', is_deleted: true },
    ],
    sections: [
      { id: 's1', project_id: '6Jf8VQXxpwv56VQ7', name: 'Doing', section_order: 1 },
      { id: 's2', project_id: '6Jf8VQXxpwv56VQ7', name: 'Done-ish', section_order: 2, is_archived: true },
    ],
    items: [
      { id: 'i1', project_id: '6X7rM8997g3RQmvh', content: 'Buy milk', priority: 4, labels: ['errand'], child_order: 1, due: { date: '2026-12-01T09:00:00', string: 'Dec 1 9am', lang: 'en', is_recurring: false, timezone: null } },
      { id: 'i2', project_id: '6Jf8VQXxpwv56VQ7', section_id: 's1', content: 'Weekly report', description: 'for the team', child_order: 1, due: { date: '2026-11-30', string: 'every monday', lang: 'en', is_recurring: true } },
      { id: 'i3', project_id: '6Jf8VQXxpwv56VQ7', section_id: 's1', parent_id: 'i2', content: 'Gather numbers', child_order: 1, checked: true, completed_at: '2026-11-20T10:00:00.000000Z' },
      { id: 'i4', project_id: '6Jf8VQXxpwv56VQ7', section_id: 's1', parent_id: 'i2', content: 'Write it', child_order: 2, deadline: { date: '2026-12-24', lang: 'en' } },
      { id: 'i5', project_id: '6Jf8VQXxpwv56VQ8', content: 'Interview', duration: { amount: 45, unit: 'minute' }, due: { date: '2026-12-02T15:00:00Z', timezone: 'Europe/Berlin', string: 'Dec 2 4pm', lang: 'en' } },
      { id: 'i6', project_id: '6Jf8VQXxpwv56VQ9', content: 'Archived task', child_order: 1 },
      { id: 'i7', project_id: 'gone', content: 'In a deleted project' },
    ],
    notes: [{ id: 'n1', item_id: 'i2', content: 'Template in the drive', file_attachment: { resource_type: 'file', file_url: 'https://example.com/report.pdf', file_name: 'report.pdf', file_type: 'application/pdf' } }],
    project_notes: [{ id: 'pn1', project_id: '6Jf8VQXxpwv56VQ7', content: 'Team rules' }],
    labels: [{ id: 'l1', name: 'errand', color: 'lime_green', item_order: 1, is_favorite: true }],
    filters: [{ id: 'f1', name: 'Urgent', query: 'p1 & today', color: 'red', item_order: 1 }],
    reminders: [{ id: 'r1', item_id: 'i1', type: 'relative', minute_offset: 30 }],
  };
}

describe('AccountImporter: a full sync rebuilt through the Sync API commands (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;
  let importer: AccountImporter;

  beforeAll(async () => {
    harness = await PlanLimitsHarness.start('account_import');
    const logger = createLogger('test', 'silent');
    const database = new Database(harness.dataSource, 'sync', new OutboxRelay(harness.dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    importer = new AccountImporter(database, harness.executor);
  });
  afterAll(() => harness.stop());

  const rows = <T>(sql: string, params: unknown[]) => harness.dataSource.query<T[]>(sql, params);

  it('keeps hierarchy, sections, labels, dues and recurrences, comments, reminders, completion and archival', async () => {
    const inbox = await harness.user('8101');
    const summary = await importer.import(principalOf('8101'), snapshotOfFullSync(hostedFullSync()), 'first');
    expect(summary.refused).toEqual([]);
    expect(summary.created).toEqual({
      label_add: 1,
      filter_add: 1,
      project_add: 3,
      section_add: 2,
      item_add: 6,
      note_add: 2,
      reminder_add: 1,
      item_complete: 1,
      section_archive: 1,
      project_archive: 1,
    });

    const projects = await rows<{ id: string; name: string; parent: string | null; color: string; view_style: string; is_favorite: boolean; is_archived: boolean }>(
      `SELECT p.id::text, p.name, parent.name AS parent, p.color, p.view_style, p.is_favorite, p.is_archived
         FROM sync.projects p LEFT JOIN sync.projects parent ON parent.id = p.parent_id
        WHERE p.owner_id = $1 AND NOT p.is_deleted AND p.id <> $2 ORDER BY p.name`,
      ['8101', inbox],
    );
    expect(projects.map(({ id: _id, ...rest }) => rest)).toEqual([
      { name: 'Old stuff', parent: null, color: 'grey', view_style: 'list', is_favorite: false, is_archived: true },
      { name: 'Work', parent: null, color: 'berry_red', view_style: 'board', is_favorite: true, is_archived: false },
      { name: 'Work › Hiring', parent: 'Work', color: 'lime_green', view_style: 'list', is_favorite: false, is_archived: false },
    ]);

    const items = await rows<{ content: string; project: string; section: string | null; parent: string | null; priority: number; labels: string[]; due: { string?: string; is_recurring?: boolean; date?: string } | null; checked: boolean }>(
      `SELECT i.content, p.name AS project, s.name AS section, parent.content AS parent, i.priority, i.labels, i.due, i.checked
         FROM sync.items i JOIN sync.projects p ON p.id = i.project_id LEFT JOIN sync.sections s ON s.id = i.section_id LEFT JOIN sync.items parent ON parent.id = i.parent_id
        WHERE i.user_id = $1 AND NOT i.is_deleted ORDER BY i.content`,
      ['8101'],
    );
    const byContent = Object.fromEntries(items.map((item) => [item.content, item]));
    expect(Object.keys(byContent).sort()).toEqual(['Archived task', 'Buy milk', 'Gather numbers', 'Interview', 'Weekly report', 'Write it']);
    expect(byContent['Buy milk']).toMatchObject({ project: 'Inbox', priority: 4, labels: ['errand'], checked: false });
    expect(byContent['Weekly report']).toMatchObject({ project: 'Work', section: 'Doing', due: expect.objectContaining({ string: 'every monday', is_recurring: true, date: '2026-11-30' }) });
    expect(byContent['Gather numbers']).toMatchObject({ parent: 'Weekly report', section: 'Doing', checked: true });
    expect(byContent['Write it']).toMatchObject({ parent: 'Weekly report', checked: false });
    expect(byContent['Interview']).toMatchObject({ project: 'Work › Hiring' });

    const [label] = await rows<{ name: string; color: string; is_favorite: boolean }>(`SELECT name, color, is_favorite FROM sync.labels WHERE user_id = $1 AND NOT is_deleted`, ['8101']);
    expect(label).toEqual({ name: 'errand', color: 'lime_green', is_favorite: true });
    const notes = await rows<{ content: string }>(`SELECT content FROM sync.notes WHERE posted_uid = $1 AND NOT is_deleted ORDER BY content`, ['8101']);
    expect(notes.map((note) => note.content)).toEqual(['Team rules', 'Template in the drive']);
    expect(await harness.count(`sync.reminders r JOIN sync.items i ON i.id = r.item_id WHERE i.user_id = $1 AND r.minute_offset = 30`, ['8101'])).toBe(1);
  });

  it('runs once: the same import again replays every command and adds nothing', async () => {
    await harness.user('8102');
    const snapshot = snapshotOfFullSync(hostedFullSync());
    const first = await importer.import(principalOf('8102'), snapshot, 'same-key');
    const second = await importer.import(principalOf('8102'), snapshot, 'same-key');
    expect(second).toEqual(first);
    expect(await harness.count(`sync.items WHERE user_id = $1 AND NOT is_deleted`, ['8102'])).toBe(6);
  });

  it('resolves references across requests: 250 tasks under one project, each with a subtask', async () => {
    await harness.user('8103');
    const items = Array.from({ length: 250 }, (_, n) => [
      { id: `t${n}`, project_id: 'big', content: `Task ${n}`, child_order: n },
      { id: `c${n}`, project_id: 'big', parent_id: `t${n}`, content: `Sub ${n}` },
    ]).flat();
    const summary = await importer.import(principalOf('8103'), snapshotOfFullSync({ projects: [{ id: 'big', name: 'Big' }], items }), 'big');
    expect(summary).toEqual({ created: { project_add: 1, item_add: 500 }, refused: [] });
    expect(await harness.count(`sync.items c JOIN sync.items p ON p.id = c.parent_id WHERE c.user_id = $1 AND c.content LIKE 'Sub %' AND p.content = 'Task ' || substr(c.content, 5)`, ['8103'])).toBe(250);
  });

  it('counts what the plan refuses, and what depended on it', async () => {
    await harness.user('8104', { max_projects: 2 });
    const summary = await importer.import(
      principalOf('8104'),
      snapshotOfFullSync({ projects: [1, 2, 3].map((n) => ({ id: n, name: `P${n}` })), items: [{ id: 1, project_id: 3, content: 'In P3' }] }),
      'limited',
    );
    expect(summary.created).toEqual({ project_add: 2 });
    expect(summary.refused).toEqual([
      { type: 'project_add', code: 'MAX_PROJECTS_LIMIT_REACHED', count: 1 },
      { type: 'item_add', code: 'INVALID_TEMPID', count: 1 },
    ]);
  });

  it('refuses what is not a full sync with a coded error naming the file', () => {
    expect(() => snapshotOfFullSync({ hello: 'world' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT_VALUE', extra: expect.objectContaining({ argument: 'file' }) }));
    expect(() => snapshotOfFullSync({ items: [{ id: 1 }] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT_VALUE' }));
  });
});
