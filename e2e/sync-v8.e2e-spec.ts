import { http } from '@doable/shared-testing';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * Sync v8 at `/sync/v8/sync` (issue #12): v8's arguments reach the one domain as canonical
 * commands, and the canonical rows come back in v8's shapes (integer ids and colours, 0/1 flags,
 * timestamps without fractions, a task's labels as label ids).
 */
describe.each(MODES)('Sync v8 (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  let counter = 0;

  const post = (path: string, json: Record<string, unknown>) => http(system.url, 'POST', path, { token: account.token, json });
  const v8 = async (json: Record<string, unknown>): Promise<any> => {
    const response = await post('/sync/v8/sync', json);
    expect(response.status).toBe(200);
    return response.body;
  };
  const commands = (...list: Array<{ type: string; args: Record<string, unknown>; temp_id?: string }>) => list.map((command) => ({ ...command, uuid: `v8-${mode}-${++counter}` }));

  it('answers a full sync of all with the v8 resources only, in v8 shapes', async () => {
    const body = await v8({ sync_token: '*', resource_types: ['all'] });
    expect(body).not.toHaveProperty('full_sync_date_utc');
    for (const key of ['completed_info', 'stats', 'view_options', 'workspaces', 'reminders_location', 'project_view_options_defaults']) expect(body).not.toHaveProperty(key);
    expect(body.user).toMatchObject({ id: Number(account.userId), email: account.email, inbox_project: expect.any(Number), join_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(body.projects).toEqual([expect.objectContaining({ id: body.user.inbox_project, inbox_project: true, color: expect.any(Number), collapsed: 0, is_deleted: 0 })]);
    expect(body.live_notifications_last_read_id).toEqual(expect.any(Number));
  });

  it('refuses a resource type v8 did not have', async () => {
    const response = await post('/sync/v8/sync', { sync_token: '*', resource_types: ['items', 'completed_info'] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'resource_types' } });
  });

  it('takes labels as ids (real and temp) and integer colours, and writes them back as ids and integers', async () => {
    const list = commands(
      { type: 'label_add', temp_id: 'v8-errand', args: { name: `errand-${mode}`, color: 41, is_favorite: 1 } },
      { type: 'project_add', temp_id: 'v8-project', args: { name: 'V8 project', color: 35 } },
      { type: 'item_add', temp_id: 'v8-task', args: { content: 'V8 task', project_id: 'v8-project', labels: ['v8-errand'], collapsed: 1 } },
    );
    const body = await v8({ commands: list, sync_token: '*', resource_types: ['labels', 'projects', 'items'] });
    expect(list.map((command) => body.sync_status[command.uuid])).toEqual(['ok', 'ok', 'ok']);
    const ids = body.temp_id_mapping;
    expect(Object.values(ids).every((id) => typeof id === 'number')).toBe(true);
    expect(body.labels).toContainEqual({ id: ids['v8-errand'], name: `errand-${mode}`, color: 41, item_order: expect.any(Number), is_deleted: 0, is_favorite: 1 });
    expect(body.projects).toContainEqual(expect.objectContaining({ id: ids['v8-project'], color: 35 }));
    expect(body.items).toContainEqual(expect.objectContaining({ id: ids['v8-task'], project_id: ids['v8-project'], labels: [ids['v8-errand']], collapsed: 1, checked: 0 }));

    // v9 reads the same task with the label's name and the colour's name: one domain.
    const v9 = await post('/sync/v9/sync', { sync_token: '*', resource_types: ['items', 'projects'] });
    expect(v9.body.items).toContainEqual(expect.objectContaining({ id: String(ids['v8-task']), labels: [`errand-${mode}`] }));
    expect(v9.body.projects).toContainEqual(expect.objectContaining({ id: String(ids['v8-project']), color: 'lime_green' }));

    // An incremental read of items alone still writes labels as ids (the reader reads the labels in the same snapshot).
    const second = commands({ type: 'label_add', temp_id: 'v8-phone', args: { name: `phone-${mode}` } });
    const made = await v8({ commands: second });
    const phone = made.temp_id_mapping['v8-phone'];
    const token = (await v8({ sync_token: '*', resource_types: ['items'] })).sync_token;
    const update = commands({ type: 'item_update', args: { id: ids['v8-task'], labels: [phone, ids['v8-errand']] } });
    const changed = await v8({ commands: update, sync_token: token, resource_types: ['items'] });
    expect(changed.sync_status[update[0].uuid]).toBe('ok');
    expect(changed).not.toHaveProperty('labels');
    expect(changed.items).toEqual([expect.objectContaining({ id: ids['v8-task'], labels: [phone, ids['v8-errand']] })]);
  });

  it("refuses a label id that is not one of the user's labels", async () => {
    const list = commands({ type: 'item_add', args: { content: 'Unlabelled', labels: [999999999999] } });
    const body = await v8({ commands: list });
    expect(body.sync_status[list[0].uuid]).toMatchObject({ error_tag: 'LABEL_NOT_FOUND', error_extra: { argument: 'label_ids' } });
  });

  it('completes tasks by ids with date_completed, answering each id, and writes date_completed and in_history', async () => {
    const added = commands({ type: 'item_add', temp_id: 'done-1', args: { content: 'Done one' } }, { type: 'item_add', temp_id: 'done-2', args: { content: 'Done two' } });
    const mapping = (await v8({ commands: added })).temp_id_mapping;
    const token = (await v8({ sync_token: '*', resource_types: ['items'] })).sync_token;
    const complete = commands({ type: 'item_complete', args: { ids: [mapping['done-1'], mapping['done-2']], date_completed: '2024-05-06T07:08:09Z', force_history: 1 } });
    const body = await v8({ commands: complete, sync_token: token, resource_types: ['items'] });
    expect(body.sync_status[complete[0].uuid]).toEqual({ [mapping['done-1']]: 'ok', [mapping['done-2']]: 'ok' });
    expect(body.items).toHaveLength(2);
    for (const item of body.items) expect(item).toMatchObject({ checked: 1, in_history: 1, date_completed: '2024-05-06T07:08:09Z' });
  });

  it('writes location reminders inside reminders, with mm_offset for relative ones', async () => {
    const list = commands(
      { type: 'item_add', temp_id: 'reminded', args: { content: 'Reminded', due: { string: 'tomorrow at 9am' } } },
      { type: 'reminder_add', temp_id: 'rel', args: { item_id: 'reminded', type: 'relative', minute_offset: 30 } },
      { type: 'reminder_add', temp_id: 'loc', args: { item_id: 'reminded', type: 'location', name: 'Office', loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_enter', radius: 50 } },
    );
    const body = await v8({ commands: list, sync_token: '*', resource_types: ['reminders'] });
    expect(list.map((command) => body.sync_status[command.uuid])).toEqual(['ok', 'ok', 'ok']);
    expect(body).not.toHaveProperty('reminders_location');
    expect(body.reminders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: body.temp_id_mapping['rel'], type: 'relative', mm_offset: 30, is_deleted: 0 }),
        expect.objectContaining({ id: body.temp_id_mapping['loc'], type: 'location', name: 'Office', radius: 50 }),
      ]),
    );
  });
});
