import { http } from '@doable/shared-testing';
import { runClient } from './support/clients';
import { setPlan } from './support/plans';
import { syncSession } from './support/sync-session';
import { type Account, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** A multipart/form-data POST as the SDKs and browsers send a template: text fields and one `file` part. */
async function multipart(baseUrl: string, path: string, token: string, fields: Record<string, string>, csv: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'template.csv');
  const response = await fetch(new URL(path, baseUrl), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * Templates (v8/v9 `templates/*`, api/v1 `templates/*`), v9 `archive/items` and the productivity
 * stats (v9 `completed/get_stats`, `get_productivity_stats`, api/v1 `tasks/completed/stats`).
 */
describe.each(MODES)('templates and listings (%s)', (mode) => {
  const { system, accounts } = useSystem(mode, { accounts: 2 });
  const me = (): Account => accounts[0];
  const { sync, run } = syncSession(() => system, () => accounts[0], 'tpl');
  let ids: Record<string, string> = {};

  /** A project's content as the v9 sync serves it, without ids: what a copy must reproduce. */
  const contentOf = async (projectId: string) => {
    const body = await sync({ sync_token: '*', resource_types: ['projects', 'items', 'sections', 'notes'] }, '/sync/v9/sync');
    const project = body.projects.find((p: any) => p.id === projectId);
    // A template holds what is still to do: completed tasks (a checked subtask syncs beside its parent) are not exported.
    const items = (body.items as any[]).filter((item) => item.project_id === projectId && !item.checked);
    const sections = (body.sections as any[]).filter((section) => section.project_id === projectId).sort((a, b) => a.section_order - b.section_order);
    const contentById = new Map(items.map((item) => [item.id, item.content]));
    const sectionName = new Map(sections.map((section) => [section.id, section.name]));
    return {
      view_style: project.view_style,
      sections: sections.map((section) => section.name),
      items: items
        .sort((a, b) => a.child_order - b.child_order || a.content.localeCompare(b.content))
        .map((item) => ({
          content: item.content,
          description: item.description,
          priority: item.priority,
          labels: [...item.labels].sort(),
          parent: item.parent_id ? contentById.get(item.parent_id) : null,
          section: item.section_id ? sectionName.get(item.section_id) : null,
          due: item.due && { string: item.due.is_recurring ? item.due.string : undefined, recurring: item.due.is_recurring, date: item.due.is_recurring ? undefined : item.due.date },
          duration: item.duration,
          deadline: item.deadline?.date ?? null,
          notes: (body.notes as any[]).filter((note) => note.item_id === item.id && !note.is_deleted).map((note) => note.content),
        })),
      project_notes: (body.project_notes as any[]).filter((note) => note.project_id === projectId && !note.is_deleted).map((note) => note.content),
    };
  };

  beforeAll(async () => {
    const { mapping, statuses } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Launch', view_style: 'board' } },
      { type: 'note_add', args: { project_id: 'p', content: 'Read me first' } },
      { type: 'item_add', temp_id: 'plan', args: { project_id: 'p', content: 'Write plan', description: 'Two pages, "quoted"\nand a second line', priority: 4, labels: ['work', 'deep'], due: { string: 'every monday' } } },
      { type: 'note_add', args: { item_id: 'plan', content: 'Draft, in the drive' } },
      { type: 'item_add', temp_id: 'outline', args: { parent_id: 'plan', content: 'Outline', priority: 3, due: { date: '2030-05-06' }, duration: { amount: 45, unit: 'minute' } } },
      { type: 'item_add', args: { parent_id: 'outline', content: 'Headings', deadline: { date: '2030-05-10' } } },
      { type: 'section_add', temp_id: 's', args: { project_id: 'p', name: 'Later' } },
      { type: 'item_add', temp_id: 'retro', args: { section_id: 's', content: 'Retro', priority: 2 } },
      { type: 'item_add', temp_id: 'done1', args: { project_id: 'p', content: 'Done one' } },
      { type: 'item_add', temp_id: 'done2', args: { project_id: 'p', content: 'Done two' } },
      { type: 'item_add', temp_id: 'sub', args: { parent_id: 'retro', content: 'Sub done' } },
      { type: 'item_close', args: { id: 'done1' } },
      { type: 'item_close', args: { id: 'done2' } },
      { type: 'item_close', args: { id: 'sub' } },
    );
    expect(statuses).toEqual(Array(14).fill('ok'));
    ids = mapping;
  });

  it('exports the project as Todoist CSV on v9 (GET and POST) and v8, and export_as_url names a download of it', async () => {
    const v9 = await http(system.url, 'GET', `/sync/v9/templates/export_as_file?project_id=${ids['p']}`, { token: me().token });
    expect(v9.status).toBe(200);
    expect(v9.headers.get('content-type')).toMatch(/^text\/csv/);
    const csv = v9.body as string;
    expect(csv.split('\n')[0]).toBe('TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG');
    expect(csv).toContain('task,Write plan @work @deep,');
    expect(csv).toContain('task,Outline,,2,2,');
    expect(csv).not.toContain('Done one');
    expect((await http(system.url, 'POST', '/sync/v9/templates/export_as_file', { token: me().token, form: { project_id: ids['p'] } })).body).toBe(csv);
    expect((await http(system.url, 'POST', '/sync/v8/templates/export_as_file', { token: me().token, form: { project_id: ids['p'] } })).body).toBe(csv);

    const url = await http(system.url, 'GET', `/sync/v9/templates/export_as_url?project_id=${ids['p']}`, { token: me().token });
    expect(url.status).toBe(200);
    expect(url.body.file_name).toBe('Launch.csv');
    // file_url is under PUBLIC_URL (its default here): fetched at this system's address, with the same token.
    const underPublicUrl = (fileUrl: string) => {
      const parsed = new URL(fileUrl);
      return `${parsed.pathname}${parsed.search}`;
    };
    expect(url.body.file_url).toMatch(/^http:\/\/localhost:8080\/sync\/v9\/templates\/export_as_file\?project_id=/);
    const download = await http(system.url, 'GET', underPublicUrl(url.body.file_url), { token: me().token });
    expect([download.status, download.body]).toEqual([200, csv]);
    const api = await http(system.url, 'GET', `/api/v1/templates/url?project_id=${ids['p']}`, { token: me().token });
    expect(api.body.file_url).toContain('/api/v1/templates/file?project_id=');
    expect((await http(system.url, 'GET', underPublicUrl(api.body.file_url), { token: me().token })).body).toBe(csv);
  });

  it('reproduces the project: its export imported (v9 multipart) into a fresh project syncs the same content', async () => {
    const csv = (await http(system.url, 'GET', `/api/v1/templates/file?project_id=${ids['p']}`, { token: me().token })).body as string;
    const { mapping } = await run({ type: 'project_add', temp_id: 'fresh', args: { name: 'Fresh', view_style: 'board' } });
    const imported = await multipart(system.url, '/sync/v9/templates/import_into_project', me().token, { project_id: mapping['fresh'] }, csv);
    expect(imported).toEqual({ status: 200, body: { status: 'ok' } });
    const [original, copy] = [await contentOf(ids['p']), await contentOf(mapping['fresh'])];
    expect(copy).toEqual(original);
    expect(copy.items.map((item) => item.content)).toEqual(expect.arrayContaining(['Write plan', 'Outline', 'Headings', 'Retro']));
    // v8 takes the same multipart form, the token as a form field included.
    const v8 = await multipart(system.url, '/sync/v8/templates/import_into_project', me().token, { project_id: mapping['fresh'] }, 'TYPE,CONTENT\ntask,From v8\n');
    expect(v8).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('api/v1 creates a project from a file and imports into one, answering the import shape; a template id is unknown', async () => {
    const csv = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT\nsection,Steps,,,\ntask,First @home,about it,1,1\ntask,Child,,4,2\nnote,hello,,,\n';
    const created = await multipart(system.url, '/api/v1/templates/create_project_from_file', me().token, { name: 'From file' }, csv);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'ok', projects: [expect.objectContaining({ name: 'From file' })] });
    expect(created.body.tasks.map((task: any) => [task.content, task.priority, task.labels])).toEqual([
      ['First', 4, ['home']],
      ['Child', 1, []],
    ]);
    expect(created.body.sections.map((section: any) => section.name)).toEqual(['Steps']);
    expect(created.body.comments.map((comment: any) => comment.content)).toEqual(['hello']);
    const into = await multipart(system.url, '/api/v1/templates/import_into_project_from_file', me().token, { project_id: created.body.project_id }, 'TYPE,CONTENT\ntask,Second\n');
    expect(into.status).toBe(200);
    expect(into.body.tasks.map((task: any) => task.content)).toEqual(['First', 'Child', 'Second']);
    // A name in another script downloads too (RFC 6266 filename*: header text stays Latin-1).
    const named = await http(system.url, 'POST', '/api/v1/templates/create_project_from_file', { token: me().token, json: { name: 'План «Q3»', file: csv } });
    const download = await http(system.url, 'GET', `/api/v1/templates/file?project_id=${named.body.project_id}`, { token: me().token });
    expect([download.status, download.headers.get('content-disposition')]).toEqual([200, `attachment; filename="____ _Q3_.csv"; filename*=UTF-8''${encodeURIComponent('План _Q3_.csv')}`]);
    const fromId = await http(system.url, 'POST', '/api/v1/templates/import_into_project_from_template_id', { token: me().token, json: { project_id: created.body.project_id, template_id: '123' } });
    expect([fromId.status, fromId.body.error_tag]).toEqual([404, 'TEMPLATE_NOT_FOUND']);
  });

  it('refuses malformed files and missing arguments with coded 400s, and another user\'s project with 404', async () => {
    const bad = await multipart(system.url, '/api/v1/templates/import_into_project_from_file', me().token, { project_id: ids['p'] }, 'TYPE,CONTENT\nfolder,x\n');
    expect([bad.status, bad.body.error_tag, bad.body.error_extra.argument]).toEqual([400, 'INVALID_ARGUMENT_VALUE', 'file']);
    const missing = await http(system.url, 'GET', '/api/v1/templates/file', { token: me().token });
    expect([missing.status, missing.body.error_tag]).toEqual([400, 'ARGUMENT_MISSING']);
    const other = accounts[1];
    const foreign = await http(system.url, 'GET', `/sync/v9/templates/export_as_file?project_id=${ids['p']}`, { token: other.token });
    expect([foreign.status, foreign.body.error_tag]).toEqual([404, 'PROJECT_NOT_FOUND']);
    const foreignImport = await multipart(system.url, '/sync/v9/templates/import_into_project', other.token, { project_id: ids['p'] }, 'TYPE,CONTENT\ntask,x\n');
    expect([foreignImport.status, foreignImport.body.error_tag]).toEqual([404, 'PROJECT_NOT_FOUND']);
  });

  it('SDK 17 exports, imports, creates from a template and reads productivity stats, validating every answer', async () => {
    const report = await runClient('todoist-sdk-templates.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: me().token, PROJECT_ID: ids['p'] });
    expect(report.file).toContain('task,Write plan @work @deep,');
    expect(report.url).toMatchObject({ fileName: 'Launch.csv', fileUrl: expect.stringContaining('/api/v1/templates/file?project_id=') });
    expect(report.imported).toMatchObject({ status: 'ok', sections: ['Later'], tasks: expect.arrayContaining(['Write plan', 'Outline', 'Headings', 'Retro']) });
    expect(report.created).toMatchObject({ status: 'ok', name: 'SDK template copy', tasks: 4 });
    expect(report.stats.completedCount).toBeGreaterThanOrEqual(3);
    expect(report.stats.days).toBe(7);
    expect(report.fromId).toBe(404);
  });

  it('refuses every template path to a plan without templates with 403 PREMIUM_ONLY', async () => {
    const bare = await system.createAccount();
    await setPlan(system, bare, 'bare');
    const inbox = (await http(system.url, 'POST', '/sync/v9/sync', { token: bare.token, json: { sync_token: '*', resource_types: ['projects'] } })).body.projects[0].id;
    const answers = [
      await http(system.url, 'GET', `/api/v1/templates/file?project_id=${inbox}`, { token: bare.token }),
      await http(system.url, 'GET', `/sync/v9/templates/export_as_url?project_id=${inbox}`, { token: bare.token }),
      await multipart(system.url, '/api/v1/templates/create_project_from_file', bare.token, { name: 'x' }, 'TYPE,CONTENT\ntask,x\n'),
      await multipart(system.url, '/sync/v9/templates/import_into_project', bare.token, { project_id: inbox }, 'TYPE,CONTENT\ntask,x\n'),
    ];
    for (const answer of answers) expect([answer.status, answer.body.error_tag, answer.body.error_extra?.feature]).toEqual([403, 'PREMIUM_ONLY', 'templates']);
  });

  it('archive/items lists the completed tasks under a project, a section or a task, paged by cursor', async () => {
    const missing = await http(system.url, 'GET', '/sync/v9/archive/items', { token: me().token });
    expect([missing.status, missing.body.error_tag]).toEqual([400, 'ARGUMENT_MISSING']);
    const first = await http(system.url, 'GET', `/sync/v9/archive/items?project_id=${ids['p']}&limit=1`, { token: me().token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 2, has_more: true, completed_info: [], next_cursor: expect.any(String) });
    expect(first.body.items).toEqual([expect.objectContaining({ id: ids['done2'], checked: true })]);
    const second = await http(system.url, 'POST', '/sync/v9/archive/items', { token: me().token, form: { project_id: ids['p'], limit: '1', cursor: first.body.next_cursor } });
    expect(second.body).toMatchObject({ items: [expect.objectContaining({ id: ids['done1'] })], has_more: false, next_cursor: null });
    const bySeen = await http(system.url, 'GET', `/sync/v9/archive/items?project_id=${ids['p']}&last_seen_id=${ids['done2']}`, { token: me().token });
    expect(bySeen.body.items.map((item: any) => item.id)).toEqual([ids['done1']]);
    const underTask = await http(system.url, 'GET', `/sync/v9/archive/items?item_id=${ids['retro']}`, { token: me().token });
    expect(underTask.body).toMatchObject({ items: [expect.objectContaining({ id: ids['sub'] })], total: 1 });
    const section = await http(system.url, 'GET', `/sync/v9/archive/items?section_id=${ids['s']}`, { token: me().token });
    expect(section.body).toMatchObject({ items: [], total: 0, has_more: false });
    const foreign = await http(system.url, 'GET', `/sync/v9/archive/items?project_id=${ids['p']}`, { token: accounts[1].token });
    expect([foreign.status, foreign.body.error_tag]).toEqual([404, 'PROJECT_NOT_FOUND']);
    const badCursor = await http(system.url, 'GET', `/sync/v9/archive/items?project_id=${ids['p']}&cursor=nonsense`, { token: me().token });
    expect([badCursor.status, badCursor.body.error_extra?.argument]).toEqual([400, 'cursor']);
  });

  it('answers the productivity stats on v9 (get_stats and get_productivity_stats, GET and POST) as on api/v1', async () => {
    const api = await http(system.url, 'GET', '/api/v1/tasks/completed/stats', { token: me().token });
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({ completed_count: 3, days_items: expect.any(Array), week_items: expect.any(Array), goals: expect.any(Object), karma: expect.any(Number) });
    for (const [method, path] of [
      ['GET', '/sync/v9/completed/get_stats'],
      ['POST', '/sync/v9/completed/get_stats'],
      ['GET', '/sync/v9/get_productivity_stats'],
      ['POST', '/sync/v9/get_productivity_stats'],
    ]) {
      const v9 = await http(system.url, method, path, { token: me().token });
      expect([v9.status, Object.keys(v9.body).sort()]).toEqual([200, Object.keys(api.body).sort()]);
      expect(v9.body.completed_count).toBe(3);
    }
  });
});
