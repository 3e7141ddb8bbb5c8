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
    { id: 'r4', item_id: '7', type: 'location' },
    { id: 'r5', item_id: '8', type: 'relative', minute_offset: 0 },
  ],
});

describe('reminders', () => {
  it("lists a task's time reminders, relative by offset then absolute by time, without location ones", () => {
    expect(remindersOf(data, '7').map((reminder) => reminder.id)).toEqual(['r1', 'r2', 'r3']);
    expect(remindersOf(data, '7').map(describeReminder)).toEqual(['15 minutes before', '1 hour before', 'At 2026-11-27 18:30']);
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
    expect(remindersOf(view, '7').map((reminder) => reminder.id)).toEqual(['t1', 'r1', 'r3']);
  });
});
