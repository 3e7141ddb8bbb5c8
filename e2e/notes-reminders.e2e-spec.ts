import { TodoistApi as TodoistApiV11 } from 'todoist-sdk-v11';
import { runClient } from './support/clients';
import { syncSession } from './support/sync-session';
import { type Account, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

const TIMED = { date: '2030-05-01T10:00:00' };
const byId = (list: any[], id: string) => list.find((entry) => entry.id === id);

describe.each(MODES)('notes and reminders (%s)', (mode) => {
  const { system, accounts: [account, stranger] } = useSystem(mode, { accounts: 2 });
  let placeAccount: Account;

  const { sync, run } = syncSession(() => system, () => account, 'nr');
  const theirs = syncSession(() => system, () => stranger, 'nr-stranger');
  const placer = syncSession(() => system, () => placeAccount, 'nr-places');
  const full = (...types: string[]) => sync({ sync_token: '*', resource_types: types });

  it('chains item_add -> note_add -> reminder_add by temp ids in one request', async () => {
    const { statuses, mapping } = await run(
      { type: 'item_add', temp_id: 'task', args: { content: 'Call the plumber', due: TIMED } },
      { type: 'note_add', temp_id: 'note', args: { item_id: 'task', content: 'Number is in the **folder**', uids_to_notify: [account.userId] } },
      { type: 'reminder_add', temp_id: 'before', args: { item_id: 'task', minute_offset: 30 } },
      { type: 'reminder_add', temp_id: 'at', args: { item_id: 'task', type: 'absolute', due: { date: '2030-04-30T18:00:00' }, is_urgent: true } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(Object.keys(mapping).sort()).toEqual(['at', 'before', 'note', 'task']);

    const body = await full('items', 'notes', 'reminders');
    const note = byId(body.notes, mapping['note']);
    expect(note).toEqual({
      id: mapping['note'],
      item_id: mapping['task'],
      posted_uid: account.userId,
      content: 'Number is in the **folder**',
      file_attachment: null,
      uids_to_notify: [account.userId],
      reactions: null,
      is_deleted: false,
      posted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    expect(note).not.toHaveProperty('project_id');
    expect(body.project_notes).toEqual([]);

    const relative = byId(body.reminders, mapping['before']);
    expect(relative).toEqual({
      id: mapping['before'],
      notify_uid: account.userId,
      item_id: mapping['task'],
      project_id: expect.any(String),
      is_deleted: false,
      type: 'relative',
      minute_offset: 30,
      is_urgent: false,
    });
    // api/v1 leaves a relative reminder's due out: sdk 10.5/11 refuse a null one (docs/api/generations.md).
    expect(relative).not.toHaveProperty('due');
    const absolute = byId(body.reminders, mapping['at']);
    expect(absolute).toMatchObject({
      type: 'absolute',
      is_urgent: true,
      due: { date: '2030-04-30T18:00:00', timezone: null, is_recurring: false, string: expect.any(String), lang: 'en' },
    });
    // The spec's reminder has both time keys: the one a type does not use is null.
    expect(absolute.minute_offset).toBeNull();
    expect(body.reminders_location).toBeUndefined();

    // v9, which no validating client reads, writes both keys on both types.
    const v9 = (await sync({ sync_token: '*', resource_types: ['reminders'] }, '/sync/v9/sync')).reminders;
    expect(byId(v9, mapping['before'])).toMatchObject({ type: 'relative', minute_offset: 30, due: null });
    expect(byId(v9, mapping['at'])).toMatchObject({ type: 'absolute', minute_offset: null, due: { date: '2030-04-30T18:00:00' } });

    // sdk 11's sync() validates each reminder (a relative due: null would throw here).
    const sdk11 = await new TodoistApiV11(account.token, { baseUrl: system.url }).sync({ syncToken: '*', resourceTypes: ['reminders'] });
    expect(sdk11.reminders?.map((reminder) => reminder.type).sort()).toEqual(['absolute', 'relative']);
  });

  it('splits task comments (notes) from project comments (project_notes), each with only its own parent key', async () => {
    const { statuses, mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Commented' } },
      { type: 'item_add', temp_id: 't', args: { content: 'Task', project_id: 'p' } },
      { type: 'note_add', temp_id: 'pn', args: { project_id: 'p', content: 'About the whole project' } },
      { type: 'note_add', temp_id: 'tn', args: { item_id: 't', content: 'About the task' } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok']);
    for (const path of ['/api/v1/sync', '/sync/v9/sync']) {
      const body = await sync({ sync_token: '*', resource_types: ['notes'] }, path);
      const projectNote = byId(body.project_notes, mapping['pn']);
      expect(projectNote).toMatchObject({ project_id: mapping['p'], content: 'About the whole project', is_deleted: false });
      expect(projectNote).not.toHaveProperty('item_id');
      expect(byId(body.notes, mapping['pn'])).toBeUndefined();
      const taskNote = byId(body.notes, mapping['tn']);
      expect(taskNote).toMatchObject({ item_id: mapping['t'] });
      expect(taskNote).not.toHaveProperty('project_id');
      expect(byId(body.project_notes, mapping['tn'])).toBeUndefined();
    }
  });

  it('updates comments, attachments and reactions, and sends the changes incrementally', async () => {
    const { mapping } = await run(
      { type: 'item_add', temp_id: 't', args: { content: 'Attachments' } },
      {
        type: 'note_add',
        temp_id: 'n',
        args: { item_id: 't', content: 'See file', file_attachment: { file_name: 'a.pdf', file_size: 1234, file_type: 'application/pdf', file_url: 'https://files.example.test/a.pdf', upload_state: 'completed', surprise: 'dropped' } },
      },
    );
    let body = await full('notes');
    expect(byId(body.notes, mapping['n']).file_attachment).toEqual({
      resource_type: 'file',
      file_name: 'a.pdf',
      file_size: 1234,
      file_type: 'application/pdf',
      file_url: 'https://files.example.test/a.pdf',
      upload_state: 'completed',
    });
    const token = body.sync_token;

    const { statuses } = await run(
      { type: 'note_update', args: { id: mapping['n'], content: 'See link', file_attachment: { resource_type: 'url', url: 'https://example.test', title: 'Example' } } },
      { type: 'note_reaction_add', args: { id: mapping['n'], reaction: '👍' } },
      { type: 'note_reaction_add', args: { id: mapping['n'], reaction: '👍' } },
      { type: 'note_reaction_add', args: { id: mapping['n'], reaction: '🎉' } },
      { type: 'note_reaction_remove', args: { id: mapping['n'], reaction: '🎉' } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    body = await sync({ sync_token: token, resource_types: ['notes'] });
    expect(body.notes).toEqual([
      expect.objectContaining({
        id: mapping['n'],
        content: 'See link',
        file_attachment: { resource_type: 'url', url: 'https://example.test', title: 'Example' },
        reactions: { '👍': [account.userId] },
      }),
    ]);
    expect(body.project_notes).toEqual([]);

    await run({ type: 'note_update', args: { id: mapping['n'], file_attachment: null } }, { type: 'note_reaction_remove', args: { id: mapping['n'], reaction: '👍' } });
    expect(byId((await full('notes')).notes, mapping['n'])).toMatchObject({ content: 'See link', file_attachment: null, reactions: null });
  });

  it('deletes a comment: a full tombstone once, then gone', async () => {
    const inbox = (await full('projects')).projects.find((project: any) => project.inbox_project);
    const { mapping } = await run({ type: 'note_add', temp_id: 'n', args: { project_id: inbox.id, content: 'Short-lived' } });
    const token = (await full('notes')).sync_token;
    expect((await run({ type: 'note_delete', args: { id: mapping['n'] } })).statuses).toEqual(['ok']);
    const changes = await sync({ sync_token: token, resource_types: ['notes'] });
    expect(changes.notes).toEqual([]);
    expect(changes.project_notes).toEqual([
      expect.objectContaining({ id: mapping['n'], content: 'Short-lived', is_deleted: true, posted_uid: account.userId, file_attachment: null, uids_to_notify: null, reactions: null }),
    ]);
    expect(byId((await full('notes')).project_notes, mapping['n'])).toBeUndefined();
    expect((await run({ type: 'note_delete', args: { id: mapping['n'] } })).statuses[0]).toMatchObject({ error_tag: 'NOTE_NOT_FOUND', http_code: 404 });
  });

  it('refuses malformed comments', async () => {
    const { mapping } = await run({ type: 'project_add', temp_id: 'p', args: { name: 'Refusals' } }, { type: 'item_add', temp_id: 't', args: { content: 'x', project_id: 'p' } });
    const { statuses } = await run(
      { type: 'note_add', args: { item_id: mapping['t'], project_id: mapping['p'], content: 'both' } },
      { type: 'note_add', args: { content: 'neither' } },
      { type: 'note_add', args: { item_id: mapping['t'] } },
      { type: 'note_add', args: { item_id: mapping['t'], content: '   ' } },
      { type: 'note_add', args: { item_id: mapping['t'], content: 'x', file_attachment: { file_name: 'no url' } } },
      { type: 'note_add', args: { item_id: mapping['t'], content: 'x', file_attachment: { file_url: 'https://a.test/f', upload_state: 'halfway' } } },
      { type: 'note_add', args: { item_id: mapping['t'], content: 'x', file_attachment: { file_url: 'javascript:alert(1)' } } },
      { type: 'note_add', args: { item_id: mapping['t'], content: 'x', uids_to_notify: ['not-a-user'] } },
      { type: 'note_reaction_add', args: { id: '3199999999', reaction: '👍' } },
      { type: 'note_add', args: { item_id: '6999999999', content: 'x' } },
      { type: 'note_add', args: { project_id: '2299999999', content: 'x' } },
    );
    expect(statuses.map((status) => status.error_tag)).toEqual([
      'INVALID_ARGUMENT_VALUE',
      'ARGUMENT_MISSING',
      'ARGUMENT_MISSING',
      'INVALID_ARGUMENT_VALUE',
      'INVALID_ARGUMENT_VALUE',
      'INVALID_ARGUMENT_VALUE',
      'INVALID_ARGUMENT_VALUE',
      'INVALID_ARGUMENT_VALUE',
      'NOTE_NOT_FOUND',
      'ITEM_NOT_FOUND',
      'PROJECT_NOT_FOUND',
    ]);
    expect(statuses[1].error_extra).toMatchObject({ argument: 'item_id' });
    expect(statuses[2].error_extra).toMatchObject({ argument: 'content' });
  });

  it('checks what each reminder type needs', async () => {
    const { mapping } = await run(
      { type: 'item_add', temp_id: 'undated', args: { content: 'No due' } },
      { type: 'item_add', temp_id: 'allday', args: { content: 'All day', due: { date: '2030-05-01' } } },
      { type: 'item_add', temp_id: 'timed', args: { content: 'Timed', due: TIMED } },
    );
    const { statuses } = await run(
      { type: 'reminder_add', args: { item_id: mapping['undated'], minute_offset: 10 } },
      { type: 'reminder_add', args: { item_id: mapping['allday'], type: 'relative', minute_offset: 10 } },
      { type: 'reminder_add', args: { item_id: mapping['timed'], type: 'absolute', due: { date: '2030-05-01' } } },
      { type: 'reminder_add', args: { item_id: mapping['timed'], type: 'absolute' } },
      { type: 'reminder_add', args: { item_id: mapping['timed'] } },
      { type: 'reminder_add', args: { item_id: mapping['timed'], type: 'relative' } },
      { type: 'reminder_add', args: { item_id: mapping['timed'], type: 'location', name: 'Office', loc_lat: '52.52', loc_long: '13.40' } },
      { type: 'reminder_add', args: { item_id: mapping['timed'], type: 'location', name: 'Office', loc_lat: '152.52', loc_long: '13.40', loc_trigger: 'on_enter' } },
      { type: 'reminder_add', args: { item_id: mapping['timed'], minute_offset: -5 } },
      { type: 'reminder_add', args: { item_id: mapping['timed'], minute_offset: 5, notify_uid: stranger.userId } },
      { type: 'reminder_add', args: { minute_offset: 5 } },
      { type: 'reminder_add', args: { item_id: '6999999999', minute_offset: 5 } },
      { type: 'reminder_update', args: { id: '4199999999', minute_offset: 5 } },
    );
    expect(statuses.map((status) => [status.error_tag, status.error_extra?.argument])).toEqual([
      ['INVALID_ARGUMENT_VALUE', 'item_id'],
      ['INVALID_ARGUMENT_VALUE', 'item_id'],
      ['INVALID_ARGUMENT_VALUE', 'due'],
      ['ARGUMENT_MISSING', 'due'],
      ['ARGUMENT_MISSING', 'due'],
      ['ARGUMENT_MISSING', 'minute_offset'],
      ['ARGUMENT_MISSING', 'loc_trigger'],
      ['INVALID_ARGUMENT_VALUE', 'loc_lat'],
      ['INVALID_ARGUMENT_VALUE', 'minute_offset'],
      ['INVALID_ARGUMENT_VALUE', 'notify_uid'],
      ['ARGUMENT_MISSING', 'item_id'],
      ['ITEM_NOT_FOUND', 'item_id'],
      ['REMINDER_NOT_FOUND', 'id'],
    ]);
    expect(statuses[0]).toMatchObject({ http_code: 400, error: expect.stringContaining('due date with a time') });
  });

  it('reads location reminders only through reminders_location, and clear_locations leaves them alone', async () => {
    const { statuses, mapping } = await run(
      { type: 'item_add', temp_id: 't', args: { content: 'Buy milk', due: TIMED } },
      { type: 'reminder_add', temp_id: 'shop', args: { item_id: 't', type: 'location', name: 'Shop', loc_lat: '52.5200', loc_long: 13.405, loc_trigger: 'on_enter', radius: 250 } },
      { type: 'reminder_add', temp_id: 'home', args: { item_id: 't', name: 'Home', loc_lat: '-33.86', loc_long: '151.21', loc_trigger: 'on_leave' } },
      { type: 'reminder_add', temp_id: 'time', args: { item_id: 't', minute_offset: 0 } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok']);

    const all = await full('all');
    expect(all.reminders_location).toBeUndefined();
    expect(all.reminders.map((reminder: any) => reminder.type)).not.toContain('location');
    expect(byId(all.reminders, mapping['time'])).toMatchObject({ type: 'relative', minute_offset: 0 });

    const both = await full('reminders', 'reminders_location');
    expect(byId(both.reminders, mapping['shop'])).toBeUndefined();
    expect(byId(both.reminders_location, mapping['shop'])).toEqual({
      id: mapping['shop'],
      notify_uid: account.userId,
      item_id: mapping['t'],
      project_id: expect.any(String),
      is_deleted: false,
      type: 'location',
      name: 'Shop',
      loc_lat: '52.5200',
      loc_long: '13.405',
      loc_trigger: 'on_enter',
      radius: 250,
    });
    expect(byId(both.reminders_location, mapping['home'])).toMatchObject({ loc_trigger: 'on_leave', radius: 100 });

    const { statuses: refused } = await run(
      { type: 'reminder_update', args: { id: mapping['shop'], type: 'absolute', due: TIMED } },
      { type: 'reminder_update', args: { id: mapping['time'], type: 'location' } },
    );
    expect(refused.map((status) => status.error_tag)).toEqual(['INVALID_ARGUMENT_VALUE', 'INVALID_ARGUMENT_VALUE']);

    const token = both.sync_token;
    expect((await run({ type: 'reminder_update', args: { id: mapping['shop'], radius: 500, loc_trigger: 'on_leave' } }, { type: 'clear_locations', args: {} })).statuses).toEqual(['ok', 'ok']);
    const changes = await sync({ sync_token: token, resource_types: ['reminders', 'reminders_location'] });
    expect(changes.reminders).toEqual([]);
    // clear_locations empties the recent places, never the reminders: only the update shows.
    expect(changes.reminders_location).toEqual([expect.objectContaining({ id: mapping['shop'], is_deleted: false, radius: 500, loc_trigger: 'on_leave', name: 'Shop' })]);
    const after = await full('reminders', 'reminders_location');
    expect(after.reminders_location.map((reminder: any) => reminder.id).sort()).toEqual([mapping['home'], mapping['shop']].sort());
    expect(after.reminders.map((reminder: any) => reminder.id)).toContain(mapping['time']);
  });

  it('keeps the places of location reminders in `locations`, once each and most recent first, until clear_locations', async () => {
    placeAccount = await system.createAccount();
    const { run: place, sync: placeSync } = placer;
    const locations = async (token: string, path = '/api/v1/sync', types = ['locations', 'reminders_location']) => placeSync({ sync_token: token, resource_types: types }, path);
    expect((await locations('*')).locations).toEqual([]);

    const { statuses, mapping } = await place(
      { type: 'item_add', temp_id: 't', args: { content: 'Errands' } },
      { type: 'reminder_add', temp_id: 'shop', args: { item_id: 't', type: 'location', name: 'Shop', loc_lat: '52.5200', loc_long: 13.405, loc_trigger: 'on_enter' } },
      { type: 'reminder_add', temp_id: 'home', args: { item_id: 't', name: 'Home', loc_lat: '-33.86', loc_long: '151.21', loc_trigger: 'on_leave' } },
      { type: 'reminder_add', temp_id: 'home2', args: { item_id: 't', name: 'Home', loc_lat: '-33.86', loc_long: '151.21', loc_trigger: 'on_enter', radius: 50 } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok']);
    const first = await locations('*');
    expect(first.locations).toEqual([
      { name: 'Home', loc_lat: '-33.86', loc_long: '151.21' },
      { name: 'Shop', loc_lat: '52.5200', loc_long: '13.405' },
    ]);
    expect((await locations('*', '/sync/v9/sync')).locations).toEqual([
      ['Home', '-33.86', '151.21'],
      ['Shop', '52.5200', '13.405'],
    ]);
    expect((await theirs.sync({ sync_token: '*', resource_types: ['locations'] })).locations).toEqual([]);

    // The same place again (its coordinates spelled otherwise) moves to the front, still once.
    expect((await place({ type: 'reminder_add', args: { item_id: mapping['t'], name: 'Shop', loc_lat: 52.52, loc_long: '13.4050', loc_trigger: 'on_leave' } })).statuses).toEqual(['ok']);
    let changes = await locations(first.sync_token);
    expect(changes.locations).toEqual([
      { name: 'Shop', loc_lat: '52.52', loc_long: '13.4050' },
      { name: 'Home', loc_lat: '-33.86', loc_long: '151.21' },
    ]);

    // A change that moves no place leaves the list out of an incremental sync (clients would take [] as empty).
    expect((await place({ type: 'reminder_update', args: { id: mapping['home'], radius: 300 } })).statuses).toEqual(['ok']);
    changes = await locations(changes.sync_token);
    expect(changes.reminders_location).toEqual([expect.objectContaining({ id: mapping['home'], radius: 300 })]);
    expect(changes).not.toHaveProperty('locations');
    // Updating a reminder's place records it.
    expect((await place({ type: 'reminder_update', args: { id: mapping['home2'], name: 'Gym', loc_lat: '40.7', loc_long: '-74' } })).statuses).toEqual(['ok']);
    changes = await locations(changes.sync_token);
    expect(changes.locations.map((entry: any) => entry.name)).toEqual(['Gym', 'Shop', 'Home']);

    // Someone else's clear_locations is theirs alone.
    expect((await theirs.run({ type: 'clear_locations', args: {} })).statuses).toEqual(['ok']);
    expect((await locations('*')).locations).toHaveLength(3);

    expect((await place({ type: 'clear_locations', args: {} })).statuses).toEqual(['ok']);
    const cleared = await locations(changes.sync_token);
    expect(cleared.locations).toEqual([]);
    expect(cleared.reminders_location).toEqual([]);
    expect((await locations(changes.sync_token, '/sync/v9/sync')).locations).toEqual([]);
    const after = await locations('*');
    expect(after.locations).toEqual([]);
    expect(after.reminders_location.map((reminder: any) => [reminder.name, reminder.is_deleted]).sort()).toEqual([
      ['Gym', false],
      ['Home', false],
      ['Shop', false],
      ['Shop', false],
    ]);
    expect((await theirs.sync({ sync_token: '*', resource_types: ['locations'] })).locations).toEqual([]);
  });

  it('updates and deletes time reminders, with full tombstones in incremental syncs', async () => {
    const { mapping } = await run(
      { type: 'item_add', temp_id: 't', args: { content: 'Dentist', due: TIMED } },
      { type: 'reminder_add', temp_id: 'r', args: { item_id: 't', minute_offset: 15 } },
    );
    const token = (await full('reminders')).sync_token;
    const { statuses } = await run({ type: 'reminder_update', args: { id: mapping['r'], due: { date: '2030-04-30T08:00:00' }, is_urgent: 1 } });
    expect(statuses).toEqual(['ok']);
    const changed = await sync({ sync_token: token, resource_types: ['reminders'] });
    expect(changed.reminders).toEqual([expect.objectContaining({ id: mapping['r'], type: 'absolute', is_urgent: true, due: expect.objectContaining({ date: '2030-04-30T08:00:00' }) })]);
    // Turned absolute: the offset it had is gone (the spec's key stays, null).
    expect(changed.reminders[0].minute_offset).toBeNull();

    expect((await run({ type: 'reminder_update', args: { id: mapping['r'], minute_offset: 60 } })).statuses).toEqual(['ok']);
    const relative = byId((await full('reminders')).reminders, mapping['r']);
    expect(relative).toMatchObject({ type: 'relative', minute_offset: 60, is_urgent: true });
    expect(relative).not.toHaveProperty('due');

    const before = (await full('reminders')).sync_token;
    expect((await run({ type: 'reminder_delete', args: { id: mapping['r'] } })).statuses).toEqual(['ok']);
    const tombstones = await sync({ sync_token: before, resource_types: ['reminders'] });
    expect(tombstones.reminders).toEqual([expect.objectContaining({ id: mapping['r'], is_deleted: true, type: 'relative', minute_offset: 60, notify_uid: account.userId, item_id: mapping['t'] })]);
    expect(byId((await full('reminders')).reminders, mapping['r'])).toBeUndefined();
  });

  it('tombstones the comments and reminders of a deleted task, and of a deleted project', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Doomed' } },
      { type: 'item_add', temp_id: 'parent', args: { content: 'Parent', project_id: 'p', due: TIMED } },
      { type: 'item_add', temp_id: 'child', args: { content: 'Child', parent_id: 'parent' } },
      { type: 'note_add', temp_id: 'childnote', args: { item_id: 'child', content: 'On the subtask' } },
      { type: 'reminder_add', temp_id: 'r', args: { item_id: 'parent', minute_offset: 5 } },
      { type: 'item_add', temp_id: 'other', args: { content: 'Survivor', project_id: 'p' } },
      { type: 'note_add', temp_id: 'othernote', args: { item_id: 'other', content: 'Survives the task delete' } },
      { type: 'note_add', temp_id: 'projectnote', args: { project_id: 'p', content: 'On the project' } },
    );
    const token = (await full('notes', 'reminders')).sync_token;
    expect((await run({ type: 'item_delete', args: { id: mapping['parent'] } })).statuses).toEqual(['ok']);
    let changes = await sync({ sync_token: token, resource_types: ['notes', 'reminders'] });
    expect(changes.notes).toEqual([expect.objectContaining({ id: mapping['childnote'], item_id: mapping['child'], content: 'On the subtask', is_deleted: true })]);
    expect(changes.project_notes).toEqual([]);
    expect(changes.reminders).toEqual([expect.objectContaining({ id: mapping['r'], is_deleted: true, type: 'relative', minute_offset: 5 })]);

    expect((await run({ type: 'project_delete', args: { id: mapping['p'] } })).statuses).toEqual(['ok']);
    changes = await sync({ sync_token: changes.sync_token, resource_types: ['notes', 'reminders'] });
    expect(changes.notes).toEqual([expect.objectContaining({ id: mapping['othernote'], is_deleted: true })]);
    expect(changes.project_notes).toEqual([expect.objectContaining({ id: mapping['projectnote'], project_id: mapping['p'], is_deleted: true })]);
    const after = await full('notes', 'reminders');
    for (const id of [mapping['childnote'], mapping['othernote']]) expect(byId(after.notes, id)).toBeUndefined();
    expect(byId(after.project_notes, mapping['projectnote'])).toBeUndefined();
    expect(byId(after.reminders, mapping['r'])).toBeUndefined();
  });

  it('moves comments and reminders with their task (and its subtasks) to another project', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'from', args: { name: 'From' } },
      { type: 'project_add', temp_id: 'to', args: { name: 'To' } },
      { type: 'item_add', temp_id: 'parent', args: { content: 'Parent', project_id: 'from', due: TIMED } },
      { type: 'item_add', temp_id: 'child', args: { content: 'Child', parent_id: 'parent' } },
      { type: 'note_add', temp_id: 'n', args: { item_id: 'child', content: 'Travels along' } },
      { type: 'reminder_add', temp_id: 'r', args: { item_id: 'parent', minute_offset: 5 } },
    );
    const token = (await full('notes', 'reminders')).sync_token;
    expect((await run({ type: 'item_move', args: { id: mapping['parent'], project_id: mapping['to'] } })).statuses).toEqual(['ok']);
    const changes = await sync({ sync_token: token, resource_types: ['notes', 'reminders'] });
    expect(changes.notes).toEqual([expect.objectContaining({ id: mapping['n'], is_deleted: false })]);
    expect(changes.reminders).toEqual([expect.objectContaining({ id: mapping['r'], project_id: mapping['to'], is_deleted: false })]);
    const [note] = await system.sql<{ project_id: string }>('SELECT project_id::text FROM sync.notes WHERE id = $1', [mapping['n']]);
    expect(note.project_id).toBe(mapping['to']);
  });

  it("keeps other users' tasks, comments and reminders out of reach", async () => {
    const { mapping } = await run(
      { type: 'item_add', temp_id: 't', args: { content: 'Private', due: TIMED } },
      { type: 'note_add', temp_id: 'n', args: { item_id: 't', content: 'Private note' } },
      { type: 'reminder_add', temp_id: 'r', args: { item_id: 't', minute_offset: 5 } },
    );
    const { statuses } = await theirs.run(
      { type: 'note_add', args: { item_id: mapping['t'], content: 'Intrusion' } },
      { type: 'note_update', args: { id: mapping['n'], content: 'Hijacked' } },
      { type: 'note_reaction_add', args: { id: mapping['n'], reaction: '👎' } },
      { type: 'note_delete', args: { id: mapping['n'] } },
      { type: 'reminder_add', args: { item_id: mapping['t'], minute_offset: 1 } },
      { type: 'reminder_update', args: { id: mapping['r'], minute_offset: 1 } },
      { type: 'reminder_delete', args: { id: mapping['r'] } },
    );
    expect(statuses.map((status) => [status.error_tag, status.http_code])).toEqual([
      ['ITEM_NOT_FOUND', 404],
      ['NOTE_NOT_FOUND', 404],
      ['NOTE_NOT_FOUND', 404],
      ['NOTE_NOT_FOUND', 404],
      ['ITEM_NOT_FOUND', 404],
      ['REMINDER_NOT_FOUND', 404],
      ['REMINDER_NOT_FOUND', 404],
    ]);
    const view = await theirs.sync({ sync_token: '*', resource_types: ['notes', 'reminders', 'reminders_location'] });
    expect(view).toMatchObject({ notes: [], project_notes: [], reminders: [], reminders_location: [] });
    expect(byId((await full('notes')).notes, mapping['n'])).toMatchObject({ content: 'Private note', reactions: null });
  });

  it('@doist/todoist-sdk 17 validates every comment and reminder shape, tombstones included', async () => {
    const sdkUser = await system.createAccount();
    const report = await runClient('todoist-sdk-notes.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: sdkUser.token });
    expect(report.first).toEqual({ locations: [] });
    expect(report.write).toEqual({
      statuses: ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
      notes: [{ content: 'Task comment', hasItemId: true, hasProjectId: false, file: 'a.txt' }],
      projectNotes: [{ content: 'Project comment', hasItemId: false, hasProjectId: true, reactions: { '👍': [sdkUser.userId] } }],
      reminders: ['absolute', 'relative'],
      locationReminders: [{ name: 'Office', radius: 150 }],
      locations: [{ name: 'Office', locLat: '52.52', locLong: '13.40' }],
    });
    expect(report.remove).toEqual({
      statuses: ['ok', 'ok'],
      notes: [true],
      projectNotes: [true],
      reminders: ['absolute:true', 'relative:true'],
      locationReminders: [true],
      locations: 'unchanged',
    });
    expect(report.clear).toEqual({ before: [{ name: 'Office', locLat: '52.52', locLong: '13.40' }], statuses: ['ok'], locations: [] });
  });
});
