import { http, waitFor } from '@doable/shared-testing';
import { runClient } from './support/clients';
import { setPlan } from './support/plans';
import { shareWith } from './support/sharing';
import { syncSession } from './support/sync-session';
import { type Account, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The activity log end to end: a scripted sequence of REST v2 requests and sync commands, then
 * v9 `activity/get`, api/v1 `activities` and sdk 17's getActivityLogs answer exactly what it did,
 * each filter selects its part, and a collaborator the project is shared with sees its events.
 */
describe.each(MODES)('activity log (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  const { run } = syncSession(() => system, () => account, 'activity');
  let friend: Account;
  const ids: Record<string, string> = {};
  /** What the script did, newest last: `object_type:event_type:object_id`. */
  const expected: string[] = [];

  const rest = async (method: 'GET' | 'POST' | 'DELETE', path: string, json?: Record<string, unknown>) => {
    const response = await http(system.url, method, path, { token: account.token, ...(json ? { json } : {}) });
    expect([path, response.status]).toEqual([path, method === 'DELETE' || path.endsWith('/close') || path.endsWith('/reopen') ? 204 : 200]);
    return response.body;
  };
  const get = (path: string, token = account.token) => http(system.url, 'GET', path, { token });
  const brief = (event: any) => `${event.object_type}:${event.event_type}:${event.object_id}`;
  const activity = async (query = '', token = account.token): Promise<string[]> => {
    const response = await get(`/sync/v9/activity/get?limit=100${query}`, token);
    expect(response.status).toBe(200);
    return (response.body.events as any[]).map(brief);
  };

  beforeAll(async () => {
    friend = await system.createAccount();
    // REST v2: a project, a task updated, closed and reopened, a comment.
    ids.project = (await rest('POST', '/rest/v2/projects', { name: 'Logged' })).id;
    expected.push(`project:added:${ids.project}`);
    ids.rest = (await rest('POST', '/rest/v2/tasks', { content: 'REST task', project_id: ids.project })).id;
    expected.push(`item:added:${ids.rest}`);
    await rest('POST', `/rest/v2/tasks/${ids.rest}`, { content: 'REST task renamed' });
    expected.push(`item:updated:${ids.rest}`);
    await rest('POST', `/rest/v2/tasks/${ids.rest}/close`);
    expected.push(`item:completed:${ids.rest}`);
    await rest('POST', `/rest/v2/tasks/${ids.rest}/reopen`);
    expected.push(`item:uncompleted:${ids.rest}`);
    ids.comment = (await rest('POST', '/rest/v2/comments', { task_id: ids.rest, content: 'A comment' })).id;
    expected.push(`note:added:${ids.comment}`);
    // Sync commands: a task with a subtask, updated, completed, and deleted (one event per task).
    const { statuses, mapping } = await run(
      { type: 'item_add', temp_id: 'parent', args: { content: 'Parent', project_id: ids.project } },
      { type: 'item_add', temp_id: 'child', args: { content: 'Child', parent_id: 'parent' } },
      { type: 'item_update', args: { id: 'parent', description: 'Described' } },
      { type: 'item_complete', args: { id: 'child' } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok']);
    Object.assign(ids, mapping);
    expected.push(`item:added:${ids.parent}`, `item:added:${ids.child}`, `item:updated:${ids.parent}`, `item:completed:${ids.child}`);
    expect((await run({ type: 'item_delete', args: { id: ids.parent } })).statuses).toEqual(['ok']);
    expected.push(`item:deleted:${ids.parent}`, `item:deleted:${ids.child}`);
    await shareWith(system, account, friend, ids.project);
    expected.push(`project:shared:${ids.project}`);
    // The log is written from the outbox by its consumer: wait until it holds them all.
    await waitFor(async () => (await activity()).length >= expected.length, 'the activity log to hold the script', 20_000);
  });

  it('v9 activity/get returns exactly what the script did, newest first', async () => {
    const response = await get('/sync/v9/activity/get?limit=100');
    expect(response.body.count).toBe(expected.length);
    expect((response.body.events as any[]).map(brief).sort()).toEqual([...expected].sort());
    const dates = (response.body.events as any[]).map((entry) => entry.event_date as string);
    expect(dates).toEqual([...dates].sort().reverse());
    const event = (response.body.events as any[]).find((entry) => entry.object_id === ids.rest && entry.event_type === 'updated');
    expect(event).toEqual({
      id: expect.any(String),
      object_type: 'item',
      object_id: ids.rest,
      event_type: 'updated',
      event_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      parent_project_id: ids.project,
      parent_item_id: null,
      initiator_id: account.userId,
      extra_data: { content: 'REST task renamed', last_content: 'REST task' },
    });
    // POST with a form works as GET does; v8 answers integer ids.
    const posted = await http(system.url, 'POST', '/sync/v9/activity/get', { token: account.token, form: { object_type: 'note' } });
    expect((posted.body.events as any[]).map(brief)).toEqual([`note:added:${ids.comment}`]);
    const v8 = await http(system.url, 'POST', '/sync/v8/activity/get', { token: account.token, form: { object_type: 'project' } });
    expect(v8.body.events.map((entry: any) => entry.object_id)).toEqual([Number(ids.project), Number(ids.project)]);
  });

  it('each filter selects its part', async () => {
    const only = (predicate: (entry: string) => boolean) => expected.filter(predicate).sort();
    expect((await activity('&object_type=item')).sort()).toEqual(only((entry) => entry.startsWith('item:')));
    expect((await activity(`&object_type=item&object_id=${ids.rest}`)).sort()).toEqual(only((entry) => entry.startsWith('item:') && entry.endsWith(`:${ids.rest}`)));
    expect((await activity('&event_type=completed')).sort()).toEqual(only((entry) => entry.includes(':completed:')));
    expect((await activity(`&object_event_types=${encodeURIComponent('["note:", "item:deleted"]')}`)).sort()).toEqual(only((entry) => entry.startsWith('note:') || entry.includes('item:deleted')));
    expect(await activity(`&parent_item_id=${ids.parent}`)).toEqual([`item:deleted:${ids.child}`, `item:completed:${ids.child}`, `item:added:${ids.child}`]);
    expect((await activity(`&parent_project_id=${ids.project}`)).length).toBe(expected.filter((entry) => !entry.startsWith('project:')).length);
    expect(await activity(`&initiator_id=${friend.userId}`)).toEqual([]);
    expect((await activity('&page=0')).length).toBe(expected.length);
    expect(await activity('&page=1')).toEqual([]);
    const paged = await get('/sync/v9/activity/get?limit=4&offset=4');
    expect(paged.body.count).toBe(expected.length);
    expect((paged.body.events as any[]).map(brief)).toEqual((await activity()).slice(4, 8));
  });

  it('api/v1 activities returns the same events with cursors and filters', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: any = await get(`/api/v1/activities?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      seen.push(...(response.body.results as any[]).map(brief));
      cursor = response.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(await activity());
    const dated = await get(`/api/v1/activities?date_from=2000-01-01&date_to=2001-01-01`);
    expect(dated.body).toEqual({ results: [], next_cursor: null });
    const annotated = await get(`/api/v1/activities?object_type=note&annotate_parents=true`);
    expect(annotated.body.results[0].extra_data).toMatchObject({ content: 'A comment', parent_name: 'Logged' });
  });

  it('sdk 17 getActivityLogs validates and pages through the log', async () => {
    const report = await runClient('todoist-sdk-activity.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token });
    const modern = (entry: string) => entry.replace(/^item:/, 'task:').replace(/^note:/, 'comment:');
    expect(report.all).toEqual((await activity()).map(modern));
    expect(report.completed.sort()).toEqual(expected.filter((entry) => entry.includes(':completed:')).map(modern).sort());
    expect(report.comments).toEqual([`comment:added:${ids.comment}`]);
  });

  it('the collaborator sees the shared project\'s events; another user sees none', async () => {
    const theirs = await activity('', friend.token);
    expect(theirs.sort()).toEqual([...expected].sort());
    const stranger = await system.createAccount();
    expect(await activity('', stranger.token)).toEqual([]);
    expect((await get(`/api/v1/activities?object_id=${ids.rest}`, stranger.token)).body).toEqual({ results: [], next_cursor: null });
  });

  it('refuses bad filters with coded 400s, and a plan without the log with 403 PREMIUM_ONLY', async () => {
    for (const path of ['/sync/v9/activity/get?object_type=planet', '/sync/v9/activity/get?limit=500', '/sync/v9/activity/get?object_event_types=%7B', '/api/v1/activities?cursor=bogus', '/api/v1/activities?date_from=soon']) {
      const response = await get(path);
      expect([path, response.status, response.body.error_tag]).toEqual([path, 400, 'INVALID_ARGUMENT_VALUE']);
    }
    const bare = await system.createAccount();
    await setPlan(system, bare, 'bare');
    const refused = await get('/sync/v9/activity/get', bare.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_tag: 'PREMIUM_ONLY', error_extra: { feature: 'activity_log' } });
  });
});
