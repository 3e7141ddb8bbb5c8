import { http } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

describe.each(MODES)('quick add (%s)', (mode) => {
  const { system, accounts: [account, stranger] } = useSystem(mode, { accounts: 2 });
  const ids: Record<string, string> = {};
  const { sync, run } = syncSession(() => system, () => account, 'qa');
  const theirs = syncSession(() => system, () => stranger, 'qa-stranger');

  beforeAll(async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'work', args: { name: 'Work' } },
      { type: 'project_add', temp_id: 'big', args: { name: 'Big Plans' } },
      { type: 'section_add', temp_id: 'meetings', args: { name: 'Meetings', project_id: 'work' } },
      { type: 'label_add', temp_id: 'phone', args: { name: 'Phone' } },
    );
    Object.assign(ids, mapping);
    const other = await theirs.run({ type: 'project_add', temp_id: 'secret', args: { name: 'Secret' } });
    ids['secret'] = other.mapping['secret']!;
  });

  const quick = (path: string, body: Record<string, unknown>, token = account.token) => http(system.url, 'POST', path, { token, json: body });

  it('extracts project, section, labels, priority, due, deadline and description (api/v1 task)', async () => {
    const { status, body } = await quick('/api/v1/tasks/quick', { text: 'Ship release #Work /Meetings @phone @errands p1 {Dec 31 2030} tomorrow 9am // check CI first' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      content: 'Ship release',
      description: 'check CI first',
      project_id: ids['work'],
      section_id: ids['meetings'],
      labels: ['Phone', 'errands'],
      priority: 4,
      deadline: { date: '2030-12-31' },
      due: expect.objectContaining({ string: 'tomorrow 9am', is_recurring: false }),
      is_collapsed: false,
      checked: false,
    });
    expect(body.due.date).toMatch(/T09:00:00$/);
    expect(body).not.toHaveProperty('collapsed');
    // The unknown label was created as a personal label.
    const labels = await sync({ sync_token: '*', resource_types: ['labels'] });
    expect(labels.labels.map((label: any) => label.name).sort()).toEqual(['Phone', 'errands']);
  });

  it('answers v9 with a v9 item, accepts a form body, multi-word projects and `content`', async () => {
    const response = await http(system.url, 'POST', '/sync/v9/quick/add', { token: account.token, form: { content: 'Dream #Big Plans every day' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ content: 'Dream', project_id: ids['big'], collapsed: false, due: expect.objectContaining({ is_recurring: true }) });
    expect(response.body).not.toHaveProperty('is_collapsed');
  });

  it('leaves an unknown or foreign #project in the content, in the Inbox', async () => {
    const { body } = await quick('/sync/v9/quick/add', { text: 'Peek #Secret' });
    expect(body.content).toBe('Peek #Secret');
    expect(body.project_id).not.toBe(ids['secret']);
    const inbox = (await sync({ sync_token: '*', resource_types: ['projects'] })).projects.find((project: any) => project.inbox_project);
    expect(body.project_id).toBe(inbox.id);
  });

  it('creates a comment and a reminder, visible in the next incremental sync', async () => {
    const before = await sync({ sync_token: '*', resource_types: ['items'] });
    const { body } = await quick('/api/v1/tasks/quick', { text: 'Call plumber tomorrow 10am', note: 'Number in the folder', reminder: 'tomorrow 9am' });
    expect(body.note_count).toBe(1);
    const delta = await sync({ sync_token: before.sync_token, resource_types: ['items', 'notes', 'reminders'] });
    expect(delta.items.map((item: any) => item.id)).toEqual([body.id]);
    expect(delta.notes).toEqual([expect.objectContaining({ item_id: body.id, content: 'Number in the folder' })]);
    expect(delta.reminders).toEqual([expect.objectContaining({ item_id: body.id, type: 'absolute', due: expect.objectContaining({ date: expect.stringMatching(/T09:00:00$/) }) })]);
  });

  it('returns parse details with meta=true', async () => {
    const { body } = await quick('/sync/v9/quick/add', { text: 'Plan #Work /Meetings @Phone p2', meta: true });
    expect(body.meta).toMatchObject({
      project: [ids['work'], 'Work'],
      section: [ids['meetings'], 'Meetings'],
      labels: { [ids['phone']]: 'Phone' },
      priority: 3,
      content: 'Plan',
      text: 'Plan #Work /Meetings @Phone p2',
    });
  });

  it('refuses a missing text and an empty content with coded errors', async () => {
    const missing = await quick('/api/v1/tasks/quick', {});
    expect([missing.status, missing.body.error_tag]).toEqual([400, 'ARGUMENT_MISSING']);
    const empty = await quick('/sync/v9/quick/add', { text: '#Work p1' });
    expect([empty.status, empty.body.error_tag]).toEqual([400, 'ITEM_CONTENT_EMPTY']);
  });

  it('writes nothing when the reminder is refused: one transaction', async () => {
    const before = await sync({ sync_token: '*', resource_types: ['items', 'labels'] });
    const refused = await quick('/api/v1/tasks/quick', { text: 'Half done @brandnew', reminder: 'tomorrow' });
    expect([refused.status, refused.body.error_tag]).toEqual([400, 'INVALID_ARGUMENT_VALUE']);
    const delta = await sync({ sync_token: before.sync_token, resource_types: ['items', 'labels'] });
    expect([delta.items, delta.labels]).toEqual([[], []]);
  });

  it('is not a Sync API command: quick_add sent to /sync is UNKNOWN_COMMAND and adds nothing', async () => {
    const before = await sync({ sync_token: '*', resource_types: ['items'] });
    const { statuses, mapping } = await run({ type: 'quick_add', temp_id: 'quick_add', args: { text: 'Smuggled #Work' } });
    expect(statuses).toEqual([expect.objectContaining({ error_tag: 'UNKNOWN_COMMAND' })]);
    expect(mapping).toEqual({});
    expect((await sync({ sync_token: before.sync_token, resource_types: ['items'] })).items).toEqual([]);
  });

  it('answers /sync/v8/quick/add with v8 timestamps, in whole seconds', async () => {
    const { status, body } = await quick('/sync/v8/quick/add', { text: 'Old client task' });
    expect(status).toBe(200);
    expect(body.date_added).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(body.date_completed).toBeNull();
  });

  it('allows a task:add token and refuses a data:read one', async () => {
    const adder = await system.createScopedToken(account.userId, ['task:add']);
    const added = await quick('/api/v1/tasks/quick', { text: 'From a widget' }, adder);
    expect([added.status, added.body.content]).toEqual([200, 'From a widget']);
    const reader = await system.createScopedToken(account.userId, ['data:read']);
    const refused = await quick('/sync/v9/quick/add', { text: 'Not allowed' }, reader);
    expect([refused.status, refused.body.error_tag]).toEqual([403, 'FORBIDDEN']);
  });
});
