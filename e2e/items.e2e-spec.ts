import { http } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** Tasks through the Sync API: every item command, and what incremental syncs show of each. */
describe.each(MODES)('items (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  const { sync, run } = syncSession(() => system, () => account, 'i');
  const tokenNow = async () => (await sync({ sync_token: '*', resource_types: ['items'] })).sync_token as string;
  const changedSince = async (token: string) => (await sync({ sync_token: token, resource_types: ['items'] })).items as any[];
  const activeItems = async () => (await sync({ sync_token: '*', resource_types: ['items'] })).items as any[];

  it('adds tasks by temp id into a new project, with a subtask, in one request', async () => {
    const { statuses, mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Garden' } },
      { type: 'item_add', temp_id: 't', args: { content: 'Plant roses', project_id: 'p', priority: 4, labels: ['outside'] } },
      { type: 'item_add', temp_id: 's', args: { content: 'Buy soil', parent_id: 't' } },
      { type: 'item_add', temp_id: 'inbox', args: { content: 'Call mum' } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok']);
    const items = await activeItems();
    const rose = items.find((item) => item.id === mapping['t']);
    expect(rose).toMatchObject({ content: 'Plant roses', project_id: mapping['p'], priority: 4, labels: ['outside'], parent_id: null, checked: false });
    expect(items.find((item) => item.id === mapping['s'])).toMatchObject({ parent_id: mapping['t'], project_id: mapping['p'] });
    const { body } = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['user'] } });
    expect(items.find((item) => item.id === mapping['inbox']).project_id).toBe(body.user.inbox_project_id);
  });

  it('writes every task key the official SDK requires (nulls present, v1 naming)', async () => {
    const [item] = await activeItems();
    for (const key of ['id', 'user_id', 'project_id', 'section_id', 'parent_id', 'added_by_uid', 'assigned_by_uid', 'responsible_uid', 'labels', 'deadline', 'duration', 'checked', 'is_deleted', 'added_at', 'completed_at', 'updated_at', 'due', 'priority', 'child_order', 'content', 'description', 'day_order', 'is_collapsed']) {
      expect(item).toHaveProperty(key);
    }
    expect(item).not.toHaveProperty('collapsed');
    const v9 = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: '*', resource_types: ['items'] } });
    expect(v9.body.items[0]).toHaveProperty('collapsed');
    expect(v9.body.items[0]).not.toHaveProperty('is_collapsed');
  });

  it('computes the due date from natural language and clears it with null', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'd', args: { content: 'Water plants', due: { string: 'every day' } } });
    let item = (await activeItems()).find((task) => task.id === mapping['d']);
    expect(item.due).toMatchObject({ string: 'every day', is_recurring: true, lang: 'en', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    await run({ type: 'item_update', args: { id: mapping['d'], due: null } });
    item = (await activeItems()).find((task) => task.id === mapping['d']);
    expect(item.due).toBeNull();
  });

  it('refuses malformed due, deadline and duration arguments with a coded error naming them', async () => {
    const { statuses } = await run(
      { type: 'item_add', args: { content: 'x', due: 5 } },
      { type: 'item_add', args: { content: 'x', due: { string: 'every blursday' } } },
      { type: 'item_add', args: { content: 'x', deadline: { date: 'soon' } } },
      { type: 'item_add', args: { content: 'x', duration: { amount: -5, unit: 'minute' } } },
    );
    expect(statuses.map((status) => [status.error_tag, status.error_extra.argument])).toEqual([
      ['INVALID_ARGUMENT_VALUE', 'due'],
      ['INVALID_ARGUMENT_VALUE', 'due'],
      ['INVALID_ARGUMENT_VALUE', 'deadline'],
      ['INVALID_ARGUMENT_VALUE', 'duration'],
    ]);
  });

  it('moves a recurring task to its next occurrence when closed', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'r', args: { content: 'Standup', due: { date: '2031-03-03', string: 'every day', is_recurring: true } } });
    const before = (await activeItems()).find((task) => task.id === mapping['r']);
    await run({ type: 'item_close', args: { id: mapping['r'] } });
    const after = (await activeItems()).find((task) => task.id === mapping['r']);
    expect(after.checked).toBe(false);
    expect(after.due.date > before.due.date).toBe(true);
  });

  it('updates fields, and refuses empty content with its own code', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'u', args: { content: 'Draft' } });
    const token = await tokenNow();
    const { statuses } = await run(
      { type: 'item_update', args: { id: mapping['u'], content: 'Final', description: 'with notes', priority: 3, labels: ['work'], is_collapsed: true } },
      { type: 'item_update', args: { id: mapping['u'], content: '   ' } },
    );
    expect(statuses[0]).toBe('ok');
    expect(statuses[1]).toMatchObject({ error_code: 61, error_tag: 'ITEM_CONTENT_EMPTY', http_code: 400 });
    expect(await changedSince(token)).toEqual([expect.objectContaining({ id: mapping['u'], content: 'Final', description: 'with notes', priority: 3, labels: ['work'], is_collapsed: true })]);
  });

  it('completes a task with its subtasks into history, and reopens it with its ancestors', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'c', args: { content: 'Parent' } }, { type: 'item_add', temp_id: 'cc', args: { content: 'Child', parent_id: 'c' } });
    const token = await tokenNow();
    await run({ type: 'item_complete', args: { id: mapping['c'], completed_at: '2030-01-02T03:04:05.000000Z' } });
    const changed = await changedSince(token);
    expect(changed.map((task) => [task.id, task.checked])).toEqual(expect.arrayContaining([[mapping['c'], true], [mapping['cc'], true]]));
    expect(changed.find((task) => task.id === mapping['c']).completed_at).toBe('2030-01-02T03:04:05.000000Z');
    const ids = (await activeItems()).map((task) => task.id);
    expect(ids).not.toContain(mapping['c']);
    expect(ids).not.toContain(mapping['cc']);

    await run({ type: 'item_uncomplete', args: { id: mapping['cc'] } });
    const reopened = (await activeItems()).filter((task) => [mapping['c'], mapping['cc']].includes(task.id));
    expect(reopened.map((task) => task.checked)).toEqual([false, false]);
  });

  it('closes a subtask by checking it under its parent, and a task into history', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'x', args: { content: 'Trip' } }, { type: 'item_add', temp_id: 'xx', args: { content: 'Pack', parent_id: 'x' } });
    await run({ type: 'item_close', args: { id: mapping['xx'] } });
    expect((await activeItems()).find((task) => task.id === mapping['xx'])).toMatchObject({ checked: true });
    await run({ type: 'item_close', args: { id: mapping['x'] } });
    expect((await activeItems()).map((task) => task.id)).not.toContain(mapping['x']);
  });

  it('deletes a task and its subtasks, sending full tombstones once', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'del', args: { content: 'Obsolete' } }, { type: 'item_add', temp_id: 'del2', args: { content: 'Also', parent_id: 'del' } });
    const token = await tokenNow();
    await run({ type: 'item_delete', args: { id: mapping['del'] } });
    const changes = await sync({ sync_token: token, resource_types: ['items'] });
    expect(changes.items).toHaveLength(2);
    for (const tombstone of changes.items) expect(tombstone).toMatchObject({ is_deleted: true, content: expect.any(String), project_id: expect.any(String) });
    expect(await changedSince(changes.sync_token)).toEqual([]);
    expect((await activeItems()).map((task) => task.id)).not.toContain(mapping['del']);
  });

  it('moves a task with its subtasks to another project, and under another task', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'dest', args: { name: 'Destination' } },
      { type: 'item_add', temp_id: 'm', args: { content: 'Mover' } },
      { type: 'item_add', temp_id: 'mm', args: { content: 'Passenger', parent_id: 'm' } },
      { type: 'item_add', temp_id: 'host', args: { content: 'Host' } },
    );
    await run({ type: 'item_move', args: { id: mapping['m'], project_id: mapping['dest'] } });
    let items = await activeItems();
    expect(items.find((task) => task.id === mapping['mm']).project_id).toBe(mapping['dest']);
    const { statuses } = await run({ type: 'item_move', args: { id: mapping['host'], parent_id: mapping['mm'] } }, { type: 'item_move', args: { id: mapping['m'], parent_id: mapping['mm'] } });
    expect(statuses[0]).toBe('ok');
    expect(statuses[1]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    items = await activeItems();
    expect(items.find((task) => task.id === mapping['host'])).toMatchObject({ parent_id: mapping['mm'], project_id: mapping['dest'] });
    const both = await run({ type: 'item_move', args: { id: mapping['m'], project_id: mapping['dest'], parent_id: mapping['host'] } });
    expect(both.statuses[0]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
  });

  it('reorders tasks and sets day orders', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'o1', args: { content: 'One' } }, { type: 'item_add', temp_id: 'o2', args: { content: 'Two' } });
    await run({ type: 'item_reorder', args: { items: [{ id: mapping['o1'], child_order: 20 }, { id: mapping['o2'], child_order: 10 }] } }, { type: 'item_update_day_orders', args: { ids_to_orders: { [mapping['o1']]: 1 } } });
    const body = await sync({ sync_token: '*', resource_types: ['items'] });
    const byId = Object.fromEntries((body.items as any[]).map((task) => [task.id, task]));
    expect([byId[mapping['o1']].child_order, byId[mapping['o2']].child_order]).toEqual([20, 10]);
    expect(body.day_orders[mapping['o1']]).toBe(1);
  });

  it("answers ITEM_NOT_FOUND for another user's task and never changes it", async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'mine', args: { content: 'Mine' } });
    const other = await system.createAccount();
    const attempts = [
      { type: 'item_update', args: { id: mapping['mine'], content: 'Hijacked' } },
      { type: 'item_delete', args: { id: mapping['mine'] } },
      { type: 'item_complete', args: { id: mapping['mine'] } },
      { type: 'item_add', args: { content: 'Sneaky child', parent_id: mapping['mine'] } },
    ].map((command, index) => ({ ...command, uuid: `${mode}-foreign-${index}` }));
    const body = await sync({ commands: attempts }, '/api/v1/sync', other.token);
    for (const attempt of attempts) expect(body.sync_status[attempt.uuid]).toMatchObject({ error_tag: 'ITEM_NOT_FOUND', http_code: 404 });
    expect((await activeItems()).find((task) => task.id === mapping['mine'])).toMatchObject({ content: 'Mine', checked: false, is_deleted: false });
  });

  it('tolerates a temp_id on commands that create nothing (todoist@1.1.0 sends one on every command)', async () => {
    const { mapping } = await run({ type: 'item_add', temp_id: 'tol', args: { content: 'Tolerant' } });
    const { statuses, mapping: second } = await run({ type: 'item_update', temp_id: 'ignored', args: { id: mapping['tol'], priority: 2 } });
    expect(statuses).toEqual(['ok']);
    expect(second).toEqual({});
  });
});
