import { type FieldTable, LABEL_FIELDS } from '@doable/contracts-sync';
import { RESTORED_OBJECTS } from '../portability/full-sync-snapshot';

/**
 * The label table's `backup`, `template` and `csv` flags against the code that reads backups by
 * hand: a field the table says a backup keeps is read back by a restore. Templates and CSVs
 * carry no label, only the names on tasks (the task table's `labels`).
 */
const lines: FieldTable = LABEL_FIELDS;

describe('the label field table against backups and templates', () => {
  it('has a restore read back every api/v1 field a backup keeps, and keep every field a restore reads', () => {
    const kept = Object.values(lines).flatMap((line) => (line.backup && line.apiV1 ? [line.apiV1] : []));
    const read = Object.keys(RESTORED_OBJECTS.label.shape);
    expect(kept.filter((key) => !read.includes(key))).toEqual([]);
    // What a restore reads beyond them is REST's spelling of the order.
    expect(read.filter((key) => !kept.includes(key))).toEqual(['order']);
  });

  it('puts no label field in templates or CSVs', () => {
    expect(Object.entries(lines).filter(([, line]) => line.template || line.csv.length > 0)).toEqual([]);
  });
});
