import { type FieldTable, REMINDER_FIELDS } from '@doable/contracts-sync';
import { RESTORED_OBJECTS } from '../portability/full-sync-snapshot';

/**
 * The reminder table's `backup`, `template` and `csv` flags against the code that reads backups
 * by hand: a field the table says a backup keeps is read back by a restore. Templates and CSVs
 * carry no reminder.
 */
const lines: FieldTable = REMINDER_FIELDS;

describe('the reminder field table against backups and templates', () => {
  it('has a restore read back every api/v1 field a backup keeps, and keep every field a restore reads', () => {
    const kept = Object.values(lines).flatMap((line) => (line.backup && line.apiV1 ? [line.apiV1] : []));
    const read = Object.keys(RESTORED_OBJECTS.reminder.shape);
    expect(kept.filter((key) => !read.includes(key))).toEqual([]);
    // What a restore reads beyond them is the older generations' spelling of the offset.
    expect(read.filter((key) => !kept.includes(key))).toEqual(['mm_offset']);
  });

  it('puts no reminder field in templates or CSVs', () => {
    expect(Object.entries(lines).filter(([, line]) => line.template || line.csv.length > 0)).toEqual([]);
  });
});
