import type { Reminder } from '@doable/sync-domain';
import { SYNC_DIALECTS } from '../src/sync-dialects';
import { reminder } from '../testing/sync-read.fixture';

const base: Reminder = reminder();
const common = { id: '4100000001', project_id: '2200000001', item_id: '6000000001', notify_uid: '42', is_deleted: false };
const write = SYNC_DIALECTS['sync-api-v1'].writers.reminder;

describe('reminder writer (the SDK ReminderSchema union)', () => {
  it('relative: minute_offset, and no due key (sdk 10.5/11 refuse a null one)', () => {
    expect(write(base)).toEqual({ ...common, type: 'relative', minute_offset: 30, is_urgent: false });
  });

  it('absolute: the due object, required, and the spec\'s minute_offset as null', () => {
    const due = { date: '2030-05-01T10:00:00', timezone: null, string: 'May 1 2030 10:00', lang: 'en', is_recurring: false };
    expect(write({ ...base, type: 'absolute', minute_offset: null, due, is_urgent: true })).toEqual({ ...common, type: 'absolute', due, minute_offset: null, is_urgent: true });
  });

  it('v9 relative: both time keys, due null (no validating client reads v9 reminders)', () => {
    expect(SYNC_DIALECTS['sync-v9'].writers.reminder(base)).toEqual({ ...common, type: 'relative', minute_offset: 30, due: null, is_urgent: false });
  });

  it('location: name, coordinates as strings, trigger and radius', () => {
    const location = { ...base, type: 'location' as const, minute_offset: null, name: 'Office', loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_leave' as const, radius: 150 };
    expect(SYNC_DIALECTS['sync-v9'].writers.reminder(location)).toEqual({ ...common, type: 'location', name: 'Office', loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_leave', radius: 150 });
  });
});
