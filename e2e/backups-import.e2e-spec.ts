import { unzipSync, zipSync } from 'fflate';
import { http, waitFor } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { type Account, MODES, type SystemUnderTest } from './support/system-view';
import { useSystem } from './support/use-system';

/** A full sync through api/v1 (every resource). */
async function fullSync(system: SystemUnderTest, account: Account): Promise<any> {
  const response = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['all'] } });
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * An account as its owner sees it, without what the server chose (ids, orders' gaps, dates of
 * creation): projects by their path of names, tasks by project path and content, everything
 * else tied to those. Two accounts with the same `picture` hold the same data.
 */
function picture(sync: any) {
  const projects = new Map<string, any>(sync.projects.map((p: any) => [p.id, p]));
  const pathOf = (id: string): string => {
    const project = projects.get(id);
    if (!project) return '?';
    return project.inbox_project ? 'Inbox' : project.parent_id ? `${pathOf(project.parent_id)} / ${project.name}` : project.name;
  };
  const sections = new Map<string, any>(sync.sections.map((s: any) => [s.id, s]));
  const items = new Map<string, any>(sync.items.map((i: any) => [i.id, i]));
  const taskName = (id: string) => `${pathOf(items.get(id)?.project_id)}: ${items.get(id)?.content}`;
  const sorted = <T>(list: T[]) => list.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    projects: sorted(sync.projects.map((p: any) => ({ path: pathOf(p.id), color: p.color, view_style: p.view_style, is_favorite: p.is_favorite, child_order: p.child_order, description: p.description ?? '' }))),
    sections: sorted(sync.sections.map((s: any) => ({ project: pathOf(s.project_id), name: s.name, section_order: s.section_order }))),
    items: sorted(
      sync.items.map((i: any) => ({
        project: pathOf(i.project_id),
        section: i.section_id ? sections.get(i.section_id)?.name : null,
        parent: i.parent_id ? items.get(i.parent_id)?.content : null,
        content: i.content,
        description: i.description,
        priority: i.priority,
        labels: [...i.labels].sort(),
        due: i.due && { date: i.due.date, string: i.due.string, is_recurring: i.due.is_recurring, timezone: i.due.timezone },
        deadline: i.deadline,
        duration: i.duration,
        checked: i.checked,
        child_order: i.child_order,
      })),
    ),
    notes: sorted(sync.notes.map((n: any) => ({ task: taskName(n.item_id), content: n.content, file_url: n.file_attachment?.file_url ?? null }))),
    project_notes: sorted(sync.project_notes.map((n: any) => ({ project: pathOf(n.project_id), content: n.content }))),
    labels: sorted(sync.labels.map((l: any) => ({ name: l.name, color: l.color, is_favorite: l.is_favorite }))),
    filters: sorted(sync.filters.map((f: any) => ({ name: f.name, query: f.query, color: f.color, is_favorite: f.is_favorite }))),
    reminders: sorted(sync.reminders.map((r: any) => ({ task: taskName(r.item_id), type: r.type, minute_offset: r.minute_offset ?? null }))),
  };
}

/** Sends a file to the import endpoint as a browser form would. */
async function importFile(system: SystemUnderTest, token: string, bytes: Uint8Array, name: string, requestId?: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await fetch(`${system.url}/api/v1/import/todoist`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, ...(requestId ? { 'X-Request-Id': requestId } : {}) }, body: form });
  return { status: response.status, body: await response.json() };
}

async function download(system: SystemUnderTest, token: string, file: string): Promise<Response> {
  return fetch(`${system.url}/api/v1/backups/download?file=${encodeURIComponent(file)}`, { headers: { Authorization: `Bearer ${token}` } });
}

describe.each(MODES)('backups, and importing a Todoist account (%s)', (mode) => {
  const { system, accounts } = useSystem(mode, { accounts: 3, env: { BACKUP_POLL_SECONDS: '1' } });
  const [original, fresh, stranger] = [0, 1, 2].map((index) => ({ get: () => accounts[index] }));
  const session = syncSession(() => system, () => original.get(), 'backup-seed');
  let backupUrl = '';
  let zip: Uint8Array = new Uint8Array();

  beforeAll(async () => {
    const { statuses } = await session.run(
      { type: 'label_add', temp_id: 'l1', args: { name: 'errand', color: 'lime_green', is_favorite: true } },
      { type: 'filter_add', args: { name: 'Urgent today', query: 'p1 & today', color: 'red' } },
      { type: 'project_add', temp_id: 'work', args: { name: 'Work', color: 'berry_red', view_style: 'board', is_favorite: true } },
      { type: 'project_add', temp_id: 'hiring', args: { name: 'Hiring', parent_id: 'work', color: 'blue', description: 'Open roles' } },
      { type: 'section_add', temp_id: 'doing', args: { name: 'Doing', project_id: 'work' } },
      { type: 'section_add', args: { name: 'Later', project_id: 'work' } },
      { type: 'item_add', temp_id: 'report', args: { content: 'Weekly report', description: 'for the team', project_id: 'work', section_id: 'doing', priority: 3, due: { string: 'every monday at 9am' } } },
      { type: 'item_add', temp_id: 'numbers', args: { content: 'Gather numbers', parent_id: 'report' } },
      { type: 'item_add', args: { content: 'Write it', parent_id: 'report', deadline: { date: '2027-01-15' } } },
      { type: 'item_add', temp_id: 'milk', args: { content: 'Buy milk', labels: ['errand'], priority: 4, due: { date: '2027-01-10T18:00:00' } } },
      { type: 'item_add', args: { content: 'Interview', project_id: 'hiring', due: { string: 'jan 12 2027 at 4pm', timezone: 'Europe/Berlin' }, duration: { amount: 45, unit: 'minute' } } },
      { type: 'note_add', args: { item_id: 'report', content: 'Template is in the drive' } },
      { type: 'note_add', args: { project_id: 'work', content: 'Team rules' } },
      { type: 'reminder_add', args: { item_id: 'milk', type: 'relative', minute_offset: 30 } },
      { type: 'item_complete', args: { id: 'numbers' } },
    );
    expect(statuses.every((status) => status === 'ok')).toBe(true);
  });

  it('makes a backup on request: listed in every generation, downloaded as a ZIP of one CSV per project and the account', async () => {
    await system.sql(`INSERT INTO sync.backup_schedule (user_id, next_at, requested) VALUES ($1, now(), true) ON CONFLICT (user_id) DO UPDATE SET next_at = now(), requested = true`, [original.get().userId]);
    const listed = await waitFor(async () => {
      const response = await http(system.url, 'GET', '/api/v1/backups', { token: original.get().token });
      return response.status === 200 && response.body.length > 0 ? response.body : undefined;
    }, 'the requested backup');
    expect(listed).toEqual([{ version: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/), url: expect.stringContaining('/api/v1/backups/download?file=') }]);
    backupUrl = listed[0].url;
    const v9 = await http(system.url, 'POST', '/sync/v9/backups/get', { token: original.get().token, form: {} });
    expect(v9.body).toEqual(listed);

    // Downloaded the way SDK 17's downloadBackup does: the list's url passed back as `file`.
    const response = await download(system, original.get().token, backupUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    zip = new Uint8Array(await response.arrayBuffer());
    const names = Object.keys(unzipSync(zip)).sort();
    expect(names).toEqual(expect.arrayContaining(['doable-account.json', expect.stringMatching(/^Inbox \[\d+\]\.csv$/), expect.stringMatching(/^Work \[\d+\]\.csv$/), expect.stringMatching(/^Hiring \[\d+\]\.csv$/)]));
  });

  it('lets a token with only backups:read list and download, and refuses one that may only add tasks', async () => {
    const backupsOnly = await system.createScopedToken(original.get().userId, ['backups:read']);
    expect((await http(system.url, 'GET', '/api/v1/backups', { token: backupsOnly })).status).toBe(200);
    expect((await download(system, backupsOnly, backupUrl)).status).toBe(200);
    const addOnly = await system.createScopedToken(original.get().userId, ['task:add']);
    expect((await http(system.url, 'GET', '/api/v1/backups', { token: addOnly })).status).toBe(403);
    expect((await download(system, addOnly, backupUrl)).status).toBe(403);
  });

  it("keeps one user's backups from another: an empty list and 404", async () => {
    expect((await http(system.url, 'GET', '/api/v1/backups', { token: stranger.get().token })).body).toEqual([]);
    expect((await download(system, stranger.get().token, backupUrl)).status).toBe(404);
  });

  it('imports the backup into a fresh account, which then holds what the original holds', async () => {
    const imported = await importFile(system, fresh.get().token, zip, 'backup.zip');
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ status: 'ok', refused: [] });
    expect(picture(await fullSync(system, fresh.get()))).toEqual(picture(await fullSync(system, original.get())));
  });

  it('imports the JSON of a full sync once: sent again with the same request id, nothing is added', async () => {
    const json = new TextEncoder().encode(JSON.stringify(await fullSync(system, original.get())));
    const target = await system.createAccount();
    const first = await importFile(system, target.token, json, 'todoist.json', 'import-once');
    const again = await importFile(system, target.token, json, 'todoist.json', 'import-once');
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(picture(await fullSync(system, target))).toEqual(picture(await fullSync(system, original.get())));
  });

  it('imports a Todoist backup (project CSVs only): projects, sections, subtasks, priorities, labels, dates and comments', async () => {
    const home = [
      'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG',
      'meta,view_style=board,,,,,,,,,,,,',
      'task,Fix the sink @diy,Kitchen,1,1,Ada (7),,2027-02-01,en,,30,minute,,',
      'note,Washers are in the drawer,,,,Ada (7),,,,,,,,',
      'task,Buy washers,,3,2,Ada (7),,,,,,,,',
      '',
      'section,Garden,,,,,,,,,,,,',
      'task,Water the plants,,4,1,Ada (7),,every day,en,,,,,',
    ].join('\n');
    const inbox = 'TYPE,CONTENT,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\ntask,Call mum,4,1,Ada (7),,,,\n';
    const zipped = zipSync({ 'Home [2203306141].csv': new TextEncoder().encode(home), 'Inbox [2203306140].csv': new TextEncoder().encode(inbox) });
    const target = await system.createAccount();
    const imported = await importFile(system, target.token, zipped, 'todoist-backup.zip');
    expect(imported).toMatchObject({ status: 200, body: { status: 'ok', refused: [], created: { project_add: 1, section_add: 1, item_add: 4, note_add: 1 } } });
    const { projects, sections, items, notes } = picture(await fullSync(system, target));
    expect(projects.map((p: any) => [p.path, p.view_style])).toEqual([['Home', 'board'], ['Inbox', 'list']]);
    expect(sections).toEqual([{ project: 'Home', name: 'Garden', section_order: 1 }]);
    const byContent = Object.fromEntries(items.map((item: any) => [item.content, item]));
    expect(byContent['Fix the sink']).toMatchObject({ project: 'Home', priority: 4, labels: ['diy'], description: 'Kitchen', due: { date: '2027-02-01', is_recurring: false }, duration: { amount: 30, unit: 'minute' } });
    expect(byContent['Buy washers']).toMatchObject({ parent: 'Fix the sink', priority: 2 });
    expect(byContent['Water the plants']).toMatchObject({ section: 'Garden', priority: 1, due: { string: 'every day', is_recurring: true } });
    expect(byContent['Call mum']).toMatchObject({ project: 'Inbox', priority: 1 });
    expect(notes).toEqual([{ task: 'Home: Fix the sink', content: 'Washers are in the drawer', file_url: null }]);
  });

  it('refuses a file that is neither a backup nor a full sync with a coded 400', async () => {
    const refused = await importFile(system, fresh.get().token, new TextEncoder().encode('hello'), 'notes.txt');
    expect(refused).toMatchObject({ status: 400, body: { error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'file' } } });
  });
});
