import { type Golden, goldenMismatch, repeatedKeys, unshapedLines, unstoredArguments } from '../../testing/field-goldens';
import { REMINDER_ADD_ARGS, REMINDER_FIELDS, REMINDER_UPDATE_ARGS } from './reminder-fields';

/**
 * The reminder table against the golden answers of every sync dialect (REST has no reminders):
 * time reminders (`reminders`) and, where the dialect reads them apart, location ones
 * (`reminders_location`). The writers of api/v1 and v9 are derived from the table; v8's and
 * v7's are written by hand, and this is what holds them to it.
 */
const GOLDEN: readonly Golden[] = [
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'reminders' },
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'reminders_location' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'reminders' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'reminders_location' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'reminders' },
  { dialect: 'v7', file: 'sync-v7.keys.json', resource: 'reminders' },
  { dialect: 'v7', file: 'sync-v7.keys.json', resource: 'reminders_location' },
];

describe('the reminder field table', () => {
  it.each(GOLDEN)('names the keys of the $dialect $resource in $file', (golden) => {
    expect(goldenMismatch(REMINDER_FIELDS, golden)).toEqual({ missing: [], unnamed: [] });
  });

  it('gives each dialect a key once, and REST none', () => {
    for (const dialect of ['apiV1', 'v9', 'v8', 'v7'] as const) expect(repeatedKeys(REMINDER_FIELDS, dialect)).toEqual([]);
    expect(Object.values(REMINDER_FIELDS).filter((line) => 'restV2' in line || 'restV1' in line)).toEqual([]);
  });

  it('gives a shape to every field api/v1 writes', () => {
    expect(unshapedLines(REMINDER_FIELDS)).toEqual([]);
  });

  it('takes as reminder_add and reminder_update arguments the fields a client may set, each a stored one', () => {
    const shared = ['due', 'is_urgent', 'loc_lat', 'loc_long', 'loc_trigger', 'minute_offset', 'name', 'notify_uid', 'radius', 'service', 'type'];
    expect(Object.keys(REMINDER_ADD_ARGS).sort()).toEqual([...shared, 'item_id'].sort());
    expect(Object.keys(REMINDER_UPDATE_ARGS).sort()).toEqual(shared);
    expect(unstoredArguments(REMINDER_FIELDS)).toEqual([]);
  });
});
