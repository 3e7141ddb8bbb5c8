import { DomainError } from '@doable/shared-errors';
import type { Item, Label, Note, Section } from '@doable/sync-domain';
import { inbox, read, reminder, renderedProjects, user } from '../../testing/sync-read.fixture';
import { syncV8Dialect } from './sync-v8.dialect';
import { V8_RESOURCE_TYPES } from './sync-v8.request';
import { labelIdLookup } from '../legacy';
import { writeV8Item } from './sync-v8.writers';

const label = (overrides: Partial<Label>): Label => ({
  id: '2156154810',
  user_id: '42',
  name: 'Errand',
  color: 'lime_green',
  item_order: 2,
  is_favorite: true,
  is_deleted: false,
  created_at: new Date('2024-01-02T03:04:05.678Z'),
  updated_at: new Date('2024-01-02T03:04:05.678Z'),
  version: '5',
  ...overrides,
});

const errand = label({});
const phone = label({ id: '2156154820', name: 'phone', color: 'taupe', item_order: 3, is_favorite: false });

const task: Item = {
  id: '2995104339',
  user_id: '42',
  project_id: '2203306141',
  section_id: '7025',
  parent_id: null,
  content: 'Buy Milk',
  description: 'semi-skimmed',
  priority: 4,
  due: { date: '2024-05-07T09:00:00', timezone: null, string: 'tomorrow at 9am', lang: 'en', is_recurring: false },
  deadline: { date: '2024-05-10', lang: 'en' },
  duration: { amount: 15, unit: 'minute' },
  // A shared label (no personal label of that name) has no id in v8.
  labels: ['errand', 'Phone', 'shared-only'],
  child_order: 3,
  day_order: -1,
  is_collapsed: true,
  checked: true,
  in_history: true,
  is_deleted: false,
  added_by_uid: '42',
  assigned_by_uid: null,
  responsible_uid: null,
  added_at: new Date('2024-01-02T03:04:05.678Z'),
  completed_at: new Date('2024-05-06T07:08:09.999Z'),
  updated_at: new Date('2024-05-06T07:08:09.999Z'),
  version: '9',
};

const V8_ITEM = {
  id: 2995104339,
  user_id: 42,
  project_id: 2203306141,
  content: 'Buy Milk',
  description: 'semi-skimmed',
  priority: 4,
  due: { date: '2024-05-07T09:00:00', timezone: null, string: 'tomorrow at 9am', lang: 'en', is_recurring: false },
  parent_id: null,
  child_order: 3,
  section_id: 7025,
  day_order: -1,
  collapsed: 1,
  labels: [2156154810, 2156154820],
  added_by_uid: 42,
  assigned_by_uid: null,
  responsible_uid: null,
  checked: 1,
  in_history: 1,
  is_deleted: 0,
  sync_id: null,
  date_completed: '2024-05-06T07:08:09Z',
  date_added: '2024-01-02T03:04:05Z',
};

function parseError(body: unknown): DomainError {
  try {
    syncV8Dialect.parseRequest(body, { userId: '42' });
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected parseRequest to throw');
}

describe('sync-v8 objects', () => {
  it('writes projects with integer ids and colours and 0/1 flags', () => {
    const rows = renderedProjects(syncV8Dialect.render({ read: read(['projects']), tempIdMapping: {} }));
    expect(rows[1]).toEqual({
      id: 2203306141,
      name: 'Errands',
      color: 30,
      parent_id: null,
      child_order: 1,
      collapsed: 1,
      shared: false,
      is_deleted: 0,
      is_archived: 0,
      is_favorite: 0,
      sync_id: null,
    });
    expect(rows[0]).toMatchObject({ id: 2203306140, inbox_project: true, collapsed: 0 });
  });

  it('writes a task with label ids, date_added and date_completed without fractions', () => {
    expect(writeV8Item(task, labelIdLookup([errand, phone]))).toEqual(V8_ITEM);
  });

  it('writes the same task from wire-text timestamps (ITEM_WIRE_COLUMNS)', () => {
    const wire = { ...task, added_at: '2024-01-02T03:04:05.678000Z', completed_at: '2024-05-06T07:08:09.999000Z', updated_at: '2024-05-06T07:08:09.999000Z' };
    expect(writeV8Item(wire, labelIdLookup([errand, phone]))).toEqual(V8_ITEM);
  });

  it("renders items' labels from the read's context (the user's labels), not from the requested labels", () => {
    const body = syncV8Dialect.render({
      read: read(['items'], { fullSync: false, rows: { items: [task] }, context: { timezone: 'UTC', labels: [errand, phone] } }),
      tempIdMapping: {},
    });
    expect(body['items']).toEqual([V8_ITEM]);
    expect(body).not.toHaveProperty('labels');
    expect(body['day_orders']).toEqual({});
  });

  it('writes labels and filters with integer colours', () => {
    const body = syncV8Dialect.render({ read: read(['labels', 'filters'], { rows: { labels: [errand], filters: [{ ...errand, query: 'today', description: null }] } }), tempIdMapping: {} });
    expect(body['labels']).toEqual([{ id: 2156154810, name: 'Errand', color: 35, item_order: 2, is_deleted: 0, is_favorite: 1 }]);
    expect(body['filters']).toEqual([{ id: 2156154810, name: 'Errand', query: 'today', color: 35, item_order: 2, is_deleted: 0, is_favorite: 1 }]);
  });

  it('writes sections as sync-interface §2 lists them (booleans, date_added, date_archived)', () => {
    const section: Section = {
      id: '7025',
      user_id: '42',
      project_id: '2203306141',
      name: 'Groceries',
      description: null,
      section_order: 1,
      is_collapsed: false,
      is_archived: true,
      is_deleted: false,
      archived_at: new Date('2024-03-04T05:06:07.890Z'),
      added_at: new Date('2019-10-07T07:09:27.123Z'),
      updated_at: new Date('2024-03-04T05:06:07.890Z'),
      version: '4',
    };
    const body = syncV8Dialect.render({ read: read(['sections'], { rows: { sections: [section] } }), tempIdMapping: {} });
    expect(body['sections']).toEqual([
      {
        id: 7025,
        name: 'Groceries',
        project_id: 2203306141,
        section_order: 1,
        collapsed: false,
        user_id: 42,
        sync_id: null,
        is_deleted: false,
        is_archived: true,
        date_archived: '2024-03-04T05:06:07Z',
        date_added: '2019-10-07T07:09:27Z',
      },
    ]);
  });

  it('writes task comments in notes and project comments in project_notes, with posted and integer reactions', () => {
    const note = (overrides: Partial<Note>): Note => ({
      id: '2992679862',
      project_id: '2203306141',
      item_id: '2995104339',
      posted_uid: '42',
      content: 'Note',
      file_attachment: null,
      uids_to_notify: ['43'],
      reactions: { '👍': ['42', '43'] },
      is_deleted: false,
      posted_at: new Date('2014-10-01T14:54:55.555Z'),
      updated_at: new Date('2014-10-01T14:54:55.555Z'),
      version: '6',
      ...overrides,
    });
    const body = syncV8Dialect.render({
      read: read(['notes'], { rows: { notes: [note({}), note({ id: '2992679863', item_id: null, uids_to_notify: null, reactions: {} })] } }),
      tempIdMapping: {},
    });
    expect(body['notes']).toEqual([
      {
        id: 2992679862,
        posted_uid: 42,
        item_id: 2995104339,
        project_id: 2203306141,
        content: 'Note',
        file_attachment: null,
        uids_to_notify: [43],
        is_deleted: 0,
        posted: '2014-10-01T14:54:55Z',
        reactions: { '👍': [42, 43] },
      },
    ]);
    expect(body['project_notes']).toEqual([
      { id: 2992679863, posted_uid: 42, project_id: 2203306141, content: 'Note', file_attachment: null, uids_to_notify: null, is_deleted: 0, posted: '2014-10-01T14:54:55Z', reactions: null },
    ]);
  });

  it('writes every reminder kind in reminders (mm_offset, due, the place), none in reminders_location', () => {
    const place = reminder({ id: '4100000002', type: 'location', minute_offset: null, name: 'Office', loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_leave', radius: 100 });
    const body = syncV8Dialect.render({
      read: read(['reminders', 'reminders_location'], { rows: { reminders: [reminder({})], reminders_location: [place] } }),
      tempIdMapping: {},
    });
    expect(body).not.toHaveProperty('reminders_location');
    expect(body['reminders']).toEqual([
      { id: 4100000001, notify_uid: 42, item_id: 6000000001, service: 'push', type: 'relative', is_deleted: 0, mm_offset: 30 },
      { id: 4100000002, notify_uid: 42, item_id: 6000000001, service: 'push', type: 'location', is_deleted: 0, name: 'Office', loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_leave', radius: 100 },
    ]);
  });

  it('writes the service a client gave, and an absolute reminder without mm_offset', () => {
    const due = { date: '2030-05-01T10:00:00', timezone: null, string: 'May 1 2030 10:00', lang: 'en', is_recurring: false };
    const absolute = reminder({ type: 'absolute', minute_offset: null, due, service: 'email' });
    const body = syncV8Dialect.render({ read: read(['reminders'], { rows: { reminders: [absolute] } }), tempIdMapping: {} });
    expect(body['reminders']).toEqual([{ id: 4100000001, notify_uid: 42, item_id: 6000000001, service: 'email', type: 'absolute', is_deleted: 0, due }]);
  });

  it('writes the user with integer ids, inbox_project and join_date, and the v8 user_settings', () => {
    const body = syncV8Dialect.render({ read: read(['user', 'user_settings']), tempIdMapping: {} });
    const written = body['user'] as Record<string, unknown>;
    expect(written).toMatchObject({ id: 42, inbox_project: Number(inbox.id), join_date: '2023-12-24T10:00:00Z', theme: 11, email: user.email, days_off: [6, 7] });
    expect(written).not.toHaveProperty('inbox_project_id');
    expect(written).not.toHaveProperty('joined_at');
    expect(written).not.toHaveProperty('websocket_url');
    expect(body['user_settings']).toEqual({ reminder_push: true, reminder_desktop: false, reminder_email: true, completed_sound_desktop: true, completed_sound_mobile: true });
  });
});

describe('sync-v8 envelope', () => {
  it('has no full_sync_date_utc and maps temp ids to integer ids', () => {
    const body = syncV8Dialect.render({ read: read(['projects']), tempIdMapping: { 'tmp-1': '2203306141' }, syncStatus: { u1: 'ok' } });
    expect(body).not.toHaveProperty('full_sync_date_utc');
    expect(body['full_sync']).toBe(true);
    expect(body['temp_id_mapping']).toEqual({ 'tmp-1': 2203306141 });
    expect(body['sync_status']).toEqual({ u1: 'ok' });
  });

  it('writes live notifications with integer ids, created in epoch seconds and 0/1 flags, and the last read id as an integer', () => {
    const body = syncV8Dialect.render({
      read: read(['live_notifications'], {
        notifications: {
          cursor: 3,
          last_read_id: '12',
          live_notifications: [
            {
              id: '12',
              created_at: '2013-08-27T21:42:00.000000Z',
              from_uid: '43',
              notification_key: 'notification_123',
              notification_type: 'share_invitation_sent',
              seq_no: 3,
              is_unread: true,
              is_deleted: false,
              invitation_id: '456',
              invitation_secret: 'abcdefghijklmno',
              project_name: 'Errands',
            },
          ],
        },
      }),
      tempIdMapping: {},
    });
    expect(body['live_notifications']).toEqual([
      {
        id: 12,
        created: 1377639720,
        from_uid: 43,
        notification_key: 'notification_123',
        notification_type: 'share_invitation_sent',
        seq_no: 3,
        is_unread: 1,
        is_deleted: 0,
        invitation_id: 456,
        invitation_secret: 'abcdefghijklmno',
        project_name: 'Errands',
      },
    ]);
    expect(body['live_notifications_last_read_id']).toBe(12);
  });

  it('answers 0 for the last read notification when none was read', () => {
    const body = syncV8Dialect.render({ read: read(['live_notifications'], { notifications: { cursor: 0, last_read_id: null, live_notifications: [] } }), tempIdMapping: {} });
    expect(body['live_notifications_last_read_id']).toBe(0);
  });
});

describe('sync-v8 requests', () => {
  const parse = (body: Record<string, unknown>) => syncV8Dialect.parseRequest(body, { userId: '42' });
  const command = (type: string, args: Record<string, unknown>) => parse({ commands: [{ type, uuid: 'u1', args }] }).commands[0];

  it('spells out all as the v8 resource types, reminders with reminders_location, and asks for the labels to render tasks', () => {
    const request = parse({ sync_token: '*', resource_types: '["all","-projects"]' });
    expect(request.resourceTypes).toEqual([...V8_RESOURCE_TYPES.flatMap((type) => (type === 'reminders' ? [type, 'reminders_location'] : [type])), '-projects']);
    expect(request.resourceTypes).not.toContain('completed_info');
    expect(request.readNeeds).toEqual({ labels: true });
  });

  it('excludes location reminders with reminders', () => {
    expect(parse({ sync_token: '*', resource_types: ['all', '-reminders'] }).resourceTypes.slice(-2)).toEqual(['-reminders', '-reminders_location']);
  });

  it.each(['reminders_location', 'completed_info', 'stats', 'view_options', 'workspaces', 'Projects'])('refuses the v9/v1-only or unknown type %j', (name) => {
    const err = parseError({ sync_token: '*', resource_types: ['items', name] });
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra).toEqual({ argument: 'resource_types' });
  });

  it("translates a task's label ids to label_ids, and collapsed to is_collapsed", () => {
    expect(command('item_add', { content: 'x', project_id: 2203306141, labels: [2156154810, '$tmp'], collapsed: 1 }).args).toEqual({
      content: 'x',
      project_id: 2203306141,
      label_ids: [2156154810, '$tmp'],
      is_collapsed: true,
    });
    expect(command('item_update', { id: 1, labels: [] }).args).toEqual({ id: 1, label_ids: [] });
  });

  it('translates integer colours to names and 0/1 flags to booleans', () => {
    expect(command('project_add', { name: 'P', color: 41, is_favorite: 1 }).args).toEqual({ name: 'P', color: 'blue', is_favorite: true });
    expect(command('label_update', { id: 5, color: 49, is_favorite: 0 }).args).toEqual({ id: 5, color: 'taupe', is_favorite: false });
    expect(command('filter_add', { name: 'F', query: 'today', color: 30 }).args).toEqual({ name: 'F', query: 'today', color: 'berry_red' });
  });

  it('marks a comment on a project paid-only (v8 kept project comments for paid plans), not one on a task nor filters', () => {
    expect(command('note_add', { project_id: 2203306141, content: 'On the project' }).paidOnly).toBe('comments');
    expect(command('note_add', { item_id: 2995104339, project_id: 2203306141, content: 'On the task' }).paidOnly).toBeUndefined();
    expect(command('filter_add', { name: 'F', query: 'today' }).paidOnly).toBeUndefined();
    // a client cannot set it: the parsed command is built from type, uuid, args and temp_id
    expect(parse({ commands: [{ type: 'item_add', uuid: 'u1', args: { content: 'x' }, paidOnly: 'filters' }] }).commands[0].paidOnly).toBeUndefined();
  });

  it('leaves a colour outside 30..49 for the command to refuse', () => {
    expect(command('project_add', { name: 'P', color: 7 }).args).toEqual({ name: 'P', color: 7 });
  });

  it('translates date_completed and force_history on item_complete', () => {
    expect(command('item_complete', { ids: [1, 2], date_completed: '2024-05-06T07:08:09Z', force_history: 0 }).args).toEqual({
      ids: [1, 2],
      completed_at: '2024-05-06T07:08:09Z',
      force_history: false,
    });
  });

  it('translates the single id of live_notifications_mark_read and _mark_unread to ids', () => {
    expect(command('live_notifications_mark_read', { id: 12 }).args).toEqual({ ids: [12] });
    expect(command('live_notifications_mark_unread', { id: '13' }).args).toEqual({ ids: ['13'] });
    expect(command('live_notifications_set_last_read', { id: 12 }).args).toEqual({ id: 12 });
  });

  it("takes a reminder's mm_offset as minute_offset", () => {
    expect(command('reminder_add', { item_id: 1, type: 'relative', mm_offset: 30 }).args).toEqual({ item_id: 1, type: 'relative', minute_offset: 30 });
    expect(command('reminder_update', { id: 2, minute_offset: 15 }).args).toEqual({ id: 2, minute_offset: 15 });
  });

  it('passes other commands as they came', () => {
    expect(command('item_delete', { ids: [1, 2] }).args).toEqual({ ids: [1, 2] });
  });
});
