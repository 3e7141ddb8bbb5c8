import { http } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

describe.each(MODES)('completed history (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  const ids: Record<string, string> = {};
  const { run } = syncSession(() => system, () => account, 'done');

  beforeAll(async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Errands' } },
      { type: 'item_add', temp_id: 'a', args: { content: 'First', project_id: 'p', due: { date: '2030-01-10' } } },
      { type: 'item_add', temp_id: 'b', args: { content: 'Second', project_id: 'p', due: { date: '2030-01-20' } } },
      { type: 'item_add', temp_id: 'c', args: { content: 'Third' } },
      { type: 'item_add', temp_id: 'open', args: { content: 'Still open' } },
      { type: 'item_complete', args: { id: 'a', completed_at: '2030-01-11T10:00:00.000000Z' } },
      { type: 'item_complete', args: { id: 'b', completed_at: '2030-01-12T10:00:00.000000Z' } },
      { type: 'item_complete', args: { id: 'c', completed_at: '2030-01-13T10:00:00.000000Z' } },
    );
    Object.assign(ids, mapping);
  });

  const get = (path: string, token = account.token) => http(system.url, 'GET', path, { token });

  it('lists tasks by completion date, newest first, in API v1 task shape, with cursors', async () => {
    const window = 'since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z';
    const first = await get(`/api/v1/tasks/completed/by_completion_date?${window}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((task: any) => task.content)).toEqual(['Third', 'Second']);
    expect(first.body.items[0]).toMatchObject({ checked: true, is_collapsed: false, completed_at: '2030-01-13T10:00:00.000000Z' });
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await get(`/api/v1/tasks/completed/by_completion_date?${window}&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ content: 'First' })], next_cursor: null });
    const filtered = await get(`/api/v1/tasks/completed/by_completion_date?${window}&project_id=${ids['p']}`);
    expect(filtered.body.items.map((task: any) => task.content)).toEqual(['Second', 'First']);
  });

  it('lists tasks by due date within its window', async () => {
    const { body } = await get('/api/v1/tasks/completed/by_due_date?since=2030-01-15T00:00:00Z&until=2030-01-31T00:00:00Z');
    expect(body.items.map((task: any) => task.content)).toEqual(['Second']);
  });

  it('refuses bad windows, limits and cursors with coded errors', async () => {
    const cases: Array<[string, string]> = [
      ['/api/v1/tasks/completed/by_completion_date?until=2030-02-01T00:00:00Z', 'ARGUMENT_MISSING'],
      ['/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-06-01T00:00:00Z', 'INVALID_ARGUMENT_VALUE'],
      ['/api/v1/tasks/completed/by_due_date?since=2030-01-01T00:00:00Z&until=2030-03-01T00:00:00Z', 'INVALID_ARGUMENT_VALUE'],
      ['/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z&limit=500', 'INVALID_ARGUMENT_VALUE'],
      ['/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z&cursor=bogus', 'INVALID_ARGUMENT_VALUE'],
    ];
    for (const [path, tag] of cases) {
      const response = await get(path);
      expect([path, response.status, response.body.error_tag]).toEqual([path, 400, tag]);
    }
    // A cursor is bound to its query: the same cursor with another limit is refused.
    const first = await get('/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z&limit=1');
    const replay = await get(`/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z&limit=2&cursor=${first.body.next_cursor}`);
    expect(replay.status).toBe(400);
  });

  it('answers v9 completed/get_all with items, their projects and sections', async () => {
    const { status, body } = await get(`/sync/v9/completed/get_all?project_id=${ids['p']}`);
    expect(status).toBe(200);
    expect(body.items.map((entry: any) => entry.content)).toEqual(['Second', 'First']);
    expect(body.items[0]).toMatchObject({ task_id: ids['b'], project_id: ids['p'], completed_at: '2030-01-12T10:00:00.000000Z', item_object: expect.objectContaining({ collapsed: false }) });
    expect(Object.keys(body.projects)).toEqual([ids['p']]);
    expect(body.sections).toEqual({});
  });

  it("never shows another user's completed tasks", async () => {
    const other = await system.createAccount();
    const { body } = await get('/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z', other.token);
    expect(body).toEqual({ items: [], next_cursor: null });
  });
});
