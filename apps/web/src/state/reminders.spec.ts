import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import type { Item } from '../api/sync-types';
import { applyPending } from './pending-overlay';
import { describeReminder, offsetText, reminderAddArgs, remindersOf } from './reminders';

const timed: Item = { id: '7', content: 'Call Ana', project_id: 'p1', priority: 1, due: { date: '2026-11-28T09:00:00' } };
const allDay: Item = { ...timed, id: '8', due: { date: '2026-11-28' } };

const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  items: [timed, allDay],
  reminders: [
    { id: 'r3', item_id: '7', type: 'absolute', due: { date: '2026-11-27T18:30:00' } },
    { id: 'r2', item_id: '7', type: 'relative', minute_offset: 60 },
    { id: 'r1', item_id: '7', type: 'relative', minute_offset: 15 },
    { id: 'r4', item_id: '7', type: 'location', name: 'Office', loc_lat: '52.52', loc_long: '13.405', loc_trigger: 'on_leave', radius: 150 },
    { id: 'r5', item_id: '8', type: 'relative', minute_offset: 0 },
  ],
});

describe('reminders', () => {
  it("lists a task's reminders, relative by offset, then absolute by time, then places", () => {
    expect(remindersOf(data, '7').map((reminder) => reminder.id)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(remindersOf(data, '7').map(describeReminder)).toEqual(['15 minutes before', '1 hour before', 'At 2026-11-27 18:30', 'When I leave Office (52.52, 13.405, within 150 m)']);
  });

  it('describes arriving at a place, and a place without a name', () => {
    expect(describeReminder({ id: 'r', item_id: '7', type: 'location', name: 'Home', loc_lat: '-33.8688', loc_long: '151.2093', loc_trigger: 'on_enter', radius: 100 })).toBe('When I arrive at Home (-33.8688, 151.2093, within 100 m)');
    expect(describeReminder({ id: 'r', item_id: '7', type: 'location', loc_lat: '0', loc_long: '0' })).toBe('When I arrive at a place (0, 0, within 100 m)');
  });

  it('builds a location reminder_add (no due needed) with the coordinates as decimal strings and the radius in whole metres', () => {
    const place = { kind: 'location', name: ' Office ', lat: ' 52.52 ', long: '-13.405', radius: '250', trigger: 'on_leave' } as const;
    expect(reminderAddArgs({ ...timed, due: null }, place)).toEqual({ args: { item_id: '7', type: 'location', name: 'Office', loc_lat: '52.52', loc_long: '-13.405', radius: 250, loc_trigger: 'on_leave' } });
    expect(reminderAddArgs(timed, { ...place, lat: '-90', long: '180', radius: '1', trigger: 'on_enter' })).toEqual({ args: expect.objectContaining({ loc_lat: '-90', loc_long: '180', radius: 1, loc_trigger: 'on_enter' }) });
  });

  it('refuses a place the server would refuse: no name, latitude outside -90..90, longitude outside -180..180, radius not above 0', () => {
    const place = { kind: 'location', name: 'Office', lat: '52.52', long: '13.405', radius: '100', trigger: 'on_enter' } as const;
    // Typed as a person types them: anything, whatever the choice's type says.
    const error = (changes: Record<string, string>) => {
      const built = reminderAddArgs(timed, { ...place, ...changes });
      return 'error' in built ? built.error : null;
    };
    expect(error({ name: '  ' })).toMatch(/Name the place/);
    for (const lat of ['90.5', '-91', '', 'north', '1e1', '+5', '.5']) expect(error({ lat })).toMatch(/latitude/);
    for (const long of ['180.01', '-181', '', '13,4']) expect(error({ long })).toMatch(/longitude/);
    for (const radius of ['0', '-5', '', '2.5', '1000001']) expect(error({ radius })).toMatch(/radius/);
    expect(error({ trigger: 'on_stay' })).toMatch(/arrive or when I leave/);
    expect(error({})).toBeNull();
  });

  it('names offsets in the largest whole unit', () => {
    expect([0, 1, 90, 120, 1440, 2880].map(offsetText)).toEqual(['At the due time', '1 minute before', '90 minutes before', '2 hours before', '1 day before', '2 days before']);
  });

  it('builds reminder_add args for a relative or an absolute choice', () => {
    expect(reminderAddArgs(timed, { kind: 'relative', minutes: 30 })).toEqual({ args: { item_id: '7', type: 'relative', minute_offset: 30 } });
    expect(reminderAddArgs(timed, { kind: 'absolute', dateTime: '2026-11-28T08:15' })).toEqual({ args: { item_id: '7', type: 'absolute', due: { date: '2026-11-28T08:15:00' } } });
  });

  it('refuses, before sending, what the server would refuse', () => {
    expect(reminderAddArgs(allDay, { kind: 'relative', minutes: 30 })).toHaveProperty('error');
    expect(reminderAddArgs({ ...timed, due: null }, { kind: 'relative', minutes: 30 })).toHaveProperty('error');
    expect(reminderAddArgs(timed, { kind: 'absolute', dateTime: '' })).toHaveProperty('error');
  });

  it('shows an added reminder at once and hides a deleted one until the server answers', () => {
    const view = applyPending(data, [
      { type: 'reminder_add', uuid: 'u1', temp_id: 't1', args: { item_id: '7', type: 'relative', minute_offset: 5 } },
      { type: 'reminder_delete', uuid: 'u2', args: { id: 'r2' } },
    ]);
    expect(remindersOf(view, '7').map((reminder) => reminder.id)).toEqual(['t1', 'r1', 'r3', 'r4']);
  });

  it('shows an added location reminder at once, described as it will be stored', () => {
    const view = applyPending(data, [{ type: 'reminder_add', uuid: 'u1', temp_id: 't2', args: { item_id: '8', type: 'location', name: 'Gym', loc_lat: '40.4168', loc_long: '-3.7038', radius: 200, loc_trigger: 'on_enter' } }]);
    expect(remindersOf(view, '8').map(describeReminder)).toEqual(['At the due time', 'When I arrive at Gym (40.4168, -3.7038, within 200 m)']);
  });

  it('keeps location reminders from their own list in the sync answer, and forgets a deleted one', () => {
    const synced = mergeSync(data, { reminders_location: [{ id: 'r6', item_id: '8', type: 'location', name: 'Park', loc_lat: '1', loc_long: '2', loc_trigger: 'on_enter', radius: 100 }] });
    expect(remindersOf(synced, '8').map((reminder) => reminder.id)).toEqual(['r5', 'r6']);
    const full = mergeSync(EMPTY_DATA, { full_sync: true, reminders: [{ id: 'r5', item_id: '8', type: 'relative', minute_offset: 0 }], reminders_location: [{ id: 'r6', item_id: '8', type: 'location', name: 'Park' }] });
    expect([...full.reminders.keys()]).toEqual(['r5', 'r6']);
    const deleted = mergeSync(synced, { reminders_location: [{ id: 'r6', item_id: '8', type: 'location', is_deleted: true }] });
    expect(deleted.reminders.has('r6')).toBe(false);
  });
});
