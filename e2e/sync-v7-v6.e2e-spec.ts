import { http } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * Sync v7 (`/API/v7/sync`, `/api/v7/sync`) and API v6 (`/API/v6/sync`) over the one domain: tasks
 * written through api/v1 read as flat `item_order`/`indent` lists and the reverse, flat moves,
 * legacy dues, day orders by timestamp, v6's seq_no, uuid idempotency, and the `token` form field.
 */
describe.each(MODES)('sync v7 and v6 (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  const v1 = syncSession(() => system, () => account, `v7v6-${mode}`);
  let uuids = 0;
  const uuid = () => `v7v6-${mode}-${++uuids}`;

  /** A v7/v6 call the way their clients made it: a form, arrays as JSON text, the token as a form field. */
  const post = async (path: string, fields: Record<string, unknown>, token = account.token) => {
    const form = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
    return http(system.url, 'POST', path, { form: { ...form, token } });
  };
  const v7 = async (fields: Record<string, unknown>, path = '/API/v7/sync'): Promise<any> => {
    const response = await post(path, fields);
    expect(response.status).toBe(200);
    return response.body;
  };
  const v6 = async (fields: Record<string, unknown>): Promise<any> => {
    const response = await post('/API/v6/sync', fields);
    expect(response.status).toBe(200);
    return response.body;
  };
  const v1Items = async () => (await v1.sync({ sync_token: '*', resource_types: ['items'] })).items as any[];
  const byId = (list: any[], id: string | number) => list.find((entry) => String(entry.id) === String(id));
  /** A project's tasks as v7 draws them: [content, item_order, indent], in list order. */
  const flatList = (items: any[], projectId: string) =>
    items
      .filter((item) => String(item.project_id) === projectId)
      .sort((a, b) => a.item_order - b.item_order)
      .map((item) => [item.content, item.item_order, item.indent]);

  /** A project with A > B > C nested and D at the top, written through api/v1. */
  const nestedProject = async (name: string) => {
    const { statuses, mapping } = await v1.run(
      { type: 'project_add', temp_id: 'p', args: { name } },
      { type: 'item_add', temp_id: 'a', args: { content: 'A', project_id: 'p' } },
      { type: 'item_add', temp_id: 'b', args: { content: 'B', parent_id: 'a' } },
      { type: 'item_add', temp_id: 'c', args: { content: 'C', parent_id: 'b' } },
      { type: 'item_add', temp_id: 'd', args: { content: 'D', project_id: 'p' } },
    );
    expect(statuses.every((status) => status === 'ok')).toBe(true);
    return mapping;
  };

  it('reads nested tasks written through api/v1 as item_order and indent, at both v7 paths', async () => {
    const ids = await nestedProject('Nested');
    for (const path of ['/API/v7/sync', '/api/v7/sync']) {
      const body = await v7({ sync_token: '*', resource_types: ['items', 'projects'] }, path);
      expect(flatList(body.items, ids['p'])).toEqual([
        ['A', 1, 1],
        ['B', 2, 2],
        ['C', 3, 3],
        ['D', 4, 1],
      ]);
      expect(byId(body.items, ids['a'])).toMatchObject({ id: Number(ids['a']), project_id: Number(ids['p']), checked: 0, is_deleted: 0 });
      expect(byId(body.items, ids['a'])).not.toHaveProperty('parent_id');
      expect(byId(body.projects, ids['p'])).toMatchObject({ name: 'Nested', indent: 1, collapsed: 0 });
    }
  });

  it('makes an item_add with indent under a task its child in api/v1, and an incremental v7 read places it among its siblings', async () => {
    const ids = await nestedProject('Indented');
    const before = await v7({ sync_token: '*', resource_types: ['items'] });
    const add = await v7({ commands: [{ type: 'item_add', uuid: uuid(), temp_id: 'x', args: { content: 'X', project_id: Number(ids['p']), item_order: 5, indent: 2 } }] });
    const x = add.temp_id_mapping['x'];
    expect(typeof x).toBe('number');
    expect(Object.values(add.sync_status)).toEqual(['ok']);
    expect(byId(await v1Items(), x)).toMatchObject({ parent_id: ids['d'], content: 'X' });

    // Only X changed: its place is reckoned over the whole project, read in the same snapshot.
    const changes = await v7({ sync_token: before.sync_token, resource_types: ['items'] });
    expect(changes.items.map((item: any) => [item.content, item.item_order, item.indent])).toEqual([['X', 5, 2]]);

    // Inserted in the middle: B's subtree moves below the new row, as in the old flat list.
    const mid = await v7({ commands: [{ type: 'item_add', uuid: uuid(), temp_id: 'y', args: { content: 'Y', project_id: ids['p'], item_order: 2, indent: 2 } }] });
    const y = String(mid.temp_id_mapping['y']);
    const tree = await v1Items();
    expect(byId(tree, y)).toMatchObject({ parent_id: ids['a'] });
    expect(byId(tree, ids['b'])).toMatchObject({ parent_id: ids['a'] });
    expect(byId(tree, y).child_order).toBeLessThan(byId(tree, ids['b']).child_order);
    const after = await v7({ sync_token: '*', resource_types: ['items'] });
    expect(flatList(after.items, ids['p'])).toEqual([
      ['A', 1, 1],
      ['Y', 2, 2],
      ['B', 3, 2],
      ['C', 4, 3],
      ['D', 5, 1],
      ['X', 6, 2],
    ]);
  });

  it('moves tasks with item_update_orders_indents and item_update indent', async () => {
    const ids = await nestedProject('Reordered');
    const body = await v7({
      commands: [
        { type: 'item_update_orders_indents', uuid: uuid(), args: { ids_to_orders_indents: { [ids['c']]: [1, 1] } } },
        { type: 'item_update', uuid: uuid(), args: { id: Number(ids['d']), indent: 2, content: 'D2' } },
      ],
    });
    expect(Object.values(body.sync_status)).toEqual(['ok', 'ok']);
    const tree = await v1Items();
    expect(byId(tree, ids['c'])).toMatchObject({ parent_id: null });
    // Indent 2 at the end of the list: under the nearest top-level row above it (A), after B.
    expect(byId(tree, ids['d'])).toMatchObject({ parent_id: ids['a'], content: 'D2' });
    const read = await v7({ sync_token: '*', resource_types: ['items'] });
    expect(flatList(read.items, ids['p'])).toEqual([
      ['C', 1, 1],
      ['A', 2, 1],
      ['B', 3, 2],
      ['D2', 4, 2],
    ]);
  });

  it('places projects by item_order and indent, and moves them with project_update_orders_indents', async () => {
    const top = await v7({ commands: [{ type: 'project_add', uuid: uuid(), temp_id: 'top', args: { name: 'Top', color: 1 } }] });
    const topId = String(top.temp_id_mapping['top']);
    const before = (await v7({ sync_token: '*', resource_types: ['projects'] })).projects as any[];
    const topOrder = byId(before, topId).item_order as number;
    const sub = await v7({ commands: [{ type: 'project_add', uuid: uuid(), temp_id: 'sub', args: { name: 'Sub', item_order: topOrder + 1, indent: 2 } }] });
    const subId = String(sub.temp_id_mapping['sub']);
    const v1Projects = async () => (await v1.sync({ sync_token: '*', resource_types: ['projects'] })).projects as any[];
    expect(byId(await v1Projects(), subId)).toMatchObject({ parent_id: topId });
    expect(byId((await v7({ sync_token: '*', resource_types: ['projects'] })).projects, subId)).toMatchObject({ indent: 2, item_order: topOrder + 1 });

    const moved = await v7({ commands: [{ type: 'project_update_orders_indents', uuid: uuid(), args: { ids_to_orders_indents: { [subId]: [topOrder + 1, 1] } } }] });
    expect(Object.values(moved.sync_status)).toEqual(['ok']);
    expect(byId(await v1Projects(), subId)).toMatchObject({ parent_id: null });
  });

  it('round-trips date_string through the domain\'s due', async () => {
    const add = await v7({ commands: [{ type: 'item_add', uuid: uuid(), temp_id: 't', args: { content: 'Dated', date_string: 'tomorrow', date_lang: 'en' } }] });
    const id = add.temp_id_mapping['t'];
    const read = await v7({ sync_token: '*', resource_types: ['items'] });
    expect(byId(read.items, id)).toMatchObject({ date_string: 'tomorrow', date_lang: 'en', due_date_utc: expect.stringMatching(/^\w{3} \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/) });
    expect(byId(await v1Items(), id).due).toMatchObject({ string: 'tomorrow', lang: 'en' });

    await v7({ commands: [{ type: 'item_update', uuid: uuid(), args: { id, date_string: '' } }] });
    expect(byId(await v1Items(), id).due).toBeNull();
    expect(byId((await v7({ sync_token: '*', resource_types: ['items'] })).items, id)).toMatchObject({ date_string: '', due_date_utc: null });
  });

  it('answers day orders by day_orders_timestamp', async () => {
    const { mapping } = await v1.run({ type: 'item_add', temp_id: 'd', args: { content: 'Today', due: { string: 'today' } } });
    await v1.run({ type: 'item_update_day_orders', args: { ids_to_orders: { [mapping['d']]: 3 } } });
    const withoutAsking = await v7({ sync_token: '*', resource_types: ['items'] });
    expect(withoutAsking).not.toHaveProperty('day_orders');
    expect(withoutAsking).not.toHaveProperty('day_orders_timestamp');

    const asked = await v7({ sync_token: '*', resource_types: ['items'], day_orders_timestamp: '0' });
    expect(asked.day_orders).toMatchObject({ [mapping['d']]: 3 });
    expect(typeof asked.day_orders_timestamp).toBe('string');

    // Something else changes: the day orders did not, so the entry is left out.
    await v1.run({ type: 'project_add', args: { name: 'Unrelated' } });
    const unchanged = await v7({ sync_token: asked.sync_token, resource_types: ['items', 'projects'], day_orders_timestamp: asked.day_orders_timestamp });
    expect(unchanged).not.toHaveProperty('day_orders');
    expect(unchanged.day_orders_timestamp).toBe(asked.day_orders_timestamp);

    await v1.run({ type: 'item_update_day_orders', args: { ids_to_orders: { [mapping['d']]: 1 } } });
    const changed = await v7({ sync_token: unchanged.sync_token, resource_types: ['items'], day_orders_timestamp: unchanged.day_orders_timestamp });
    expect(changed.day_orders).toEqual({ [mapping['d']]: 1 });
    expect(changed.day_orders_timestamp).not.toBe(asked.day_orders_timestamp);
  });

  it('reads incrementally by v6 seq_no, seeing a change made through api/v1', async () => {
    const first = await v6({ seq_no: '0' });
    expect(first).toMatchObject({ UserId: expect.any(Number), seq_no: expect.any(Number), seq_no_global: expect.any(Number) });
    expect(first.User).toMatchObject({ timezone: expect.any(String), tz_offset: expect.any(Array) });
    expect(first.User).not.toHaveProperty('tz_info');
    expect(first).not.toHaveProperty('sync_token');
    expect(Array.isArray(first.Items)).toBe(true);

    const { mapping } = await v1.run({ type: 'item_add', temp_id: 'n', args: { content: 'Seen by v6' } });
    const next = await v6({ seq_no: String(first.seq_no), resource_types: ['items'] });
    expect(next.Items.map((item: any) => item.content)).toEqual(['Seen by v6']);
    expect(next.Items[0].id).toBe(Number(mapping['n']));
    expect(next.seq_no).toBeGreaterThan(first.seq_no);

    const quiet = await v6({ seq_no: String(next.seq_no), resource_types: ['items'] });
    expect(quiet.Items).toEqual([]);
    expect(quiet.seq_no).toBe(next.seq_no);

    const write = await v6({ commands: [{ type: 'item_delete', uuid: uuid(), args: { ids: [Number(mapping['n'])] } }] });
    expect(Object.values(write.SyncStatus)).toEqual([{ [mapping['n']]: 'ok' }]);
  });

  it('runs a retried command uuid once', async () => {
    const command = { type: 'item_add', uuid: uuid(), temp_id: 'once', args: { content: 'Exactly once' } };
    const first = await v7({ commands: [command] });
    const retry = await v7({ commands: [command] });
    expect(Object.values(first.sync_status)).toEqual(['ok']);
    expect(Object.values(retry.sync_status)).toEqual(['ok']);
    expect((await v1Items()).filter((item) => item.content === 'Exactly once')).toHaveLength(1);
  });

  it('answers per id for `ids` arrays, naming the command type in each error', async () => {
    const { mapping } = await v1.run({ type: 'item_add', temp_id: 'k', args: { content: 'Keep then close' } });
    const body = await v7({ commands: [{ type: 'item_complete', uuid: uuid(), args: { ids: [Number(mapping['k']), 9999999999] } }] });
    const [status] = Object.values<any>(body.sync_status);
    expect(status[mapping['k']]).toBe('ok');
    expect(status['9999999999']).toMatchObject({ error_tag: 'ITEM_NOT_FOUND', command_type: 'item_complete' });
  });

  it('takes the token as a form field, and refuses a wrong one', async () => {
    expect((await post('/API/v7/sync', { sync_token: '*', resource_types: ['projects'] })).status).toBe(200);
    expect((await post('/API/v7/sync', { sync_token: '*', resource_types: ['projects'] }, 'not-a-token')).status).toBe(401);
    expect((await post('/API/v6/sync', { seq_no: '0' }, 'not-a-token')).status).toBe(401);
  });

  it('keeps the service a v7 reminder_add names, reads it back in v7, v6 and v8, and keeps it through an update that does not name it', async () => {
    const { statuses, mapping } = await v1.run({ type: 'item_add', temp_id: 't', args: { content: 'Remind me', due: { date: '2030-05-01T10:00:00' } } });
    expect(statuses).toEqual(['ok']);
    const itemId = Number(mapping['t']);
    const added = await v7({
      commands: [
        { type: 'reminder_add', uuid: uuid(), temp_id: 'mail', args: { item_id: itemId, service: 'email', type: 'relative', mm_offset: 30 } },
        { type: 'reminder_add', uuid: uuid(), temp_id: 'plain', args: { item_id: itemId, type: 'relative', mm_offset: 10 } },
      ],
    });
    expect(Object.values(added.sync_status)).toEqual(['ok', 'ok']);
    const [mail, plain] = [added.temp_id_mapping['mail'], added.temp_id_mapping['plain']];
    const updated = await v7({ commands: [{ type: 'reminder_update', uuid: uuid(), args: { id: mail, mm_offset: 45 } }] });
    expect(Object.values(updated.sync_status)).toEqual(['ok']);

    const v7Reminders = (await v7({ sync_token: '*', resource_types: ['reminders'] })).reminders;
    expect(byId(v7Reminders, mail)).toMatchObject({ service: 'email', mm_offset: 45 });
    // None named: v7's default channel.
    expect(byId(v7Reminders, plain)).toMatchObject({ service: 'push', mm_offset: 10 });
    expect(byId((await v6({ seq_no: 0, resource_types: ['reminders'] })).Reminders, mail)).toMatchObject({ service: 'email' });
    const v8 = await http(system.url, 'POST', '/sync/v8/sync', { token: account.token, json: { sync_token: '*', resource_types: ['reminders'] } });
    expect(byId(v8.body.reminders, mail)).toMatchObject({ service: 'email', mm_offset: 45 });

    // A later service replaces it.
    const moved = await v7({ commands: [{ type: 'reminder_update', uuid: uuid(), args: { id: mail, service: 'mobile' } }] });
    expect(Object.values(moved.sync_status)).toEqual(['ok']);
    expect(byId((await v7({ sync_token: '*', resource_types: ['reminders'] })).reminders, mail)).toMatchObject({ service: 'mobile', mm_offset: 45 });
  });

  it('quick-adds through v7, answering a v7 item', async () => {
    const response = await post('/API/v7/quick/add', { text: 'Quick v7 tomorrow' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: expect.any(Number), date_string: expect.any(String), indent: 1, checked: 0 });
  });
});
