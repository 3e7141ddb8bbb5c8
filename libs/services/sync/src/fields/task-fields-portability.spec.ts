import { type FieldTable, TASK_FIELDS } from '@doable/contracts-sync';
import { z } from 'zod';
import { fieldsAsTheyAre, restoredAsTheyAre, restoredItem } from '../portability/full-sync-snapshot';
import { TODOIST_CSV_COLUMNS } from '../templates/todoist-csv';

/**
 * The task table's `backup` and `csv` flags against the code that reads and writes backups and
 * CSVs by hand (their shapes are Todoist's, with aliases and unit conversions no line can say):
 * a field the table says a backup keeps is read back by a restore, and the CSV columns the lines
 * name are the Todoist CSV's.
 */
const lines: FieldTable = TASK_FIELDS;

describe('the task field table against backups and the Todoist CSV', () => {
  it('has a restore read back every api/v1 field a backup keeps, and keep every field a restore reads', () => {
    const kept = Object.values(lines).flatMap((line) => (line.backup && line.apiV1 ? [line.apiV1] : []));
    const read = Object.keys(restoredItem.shape);
    expect(kept.filter((key) => !read.includes(key))).toEqual([]);
    // What a restore reads beyond them are older dialects' spellings of the same fields (a v7/v8 backup).
    expect(read.filter((key) => !kept.includes(key))).toEqual(['item_order', 'collapsed', 'date_completed']);
  });

  it('names Todoist CSV columns only, and each task column of the CSV', () => {
    const named = Object.values(lines).flatMap((line) => line.csv);
    const columns: readonly string[] = TODOIST_CSV_COLUMNS;
    expect(named.filter((column) => !columns.includes(column))).toEqual([]);
    expect(columns.filter((column) => column !== 'TYPE' && !named.includes(column))).toEqual([]);
  });

  it('puts in templates every field that has a CSV column, and no other but the task’s place (its section and its order, rows in the CSV)', () => {
    expect(Object.entries(lines).filter(([, line]) => line.csv.length > 0 && !line.template).map(([name]) => name)).toEqual([]);
    // A template is Todoist's CSV: a field it has no column for cannot travel in one (a new line marked `template` fails here).
    expect(Object.entries(lines).filter(([, line]) => line.csv.length === 0 && line.template).map(([name]) => name)).toEqual(['section_id', 'child_order']);
  });

  it('restores as it is a field a new line adds, and none of today’s (the restore reads each of them itself)', () => {
    expect(restoredAsTheyAre(TASK_FIELDS)).toEqual([]);
    const wider = {
      ...TASK_FIELDS,
      estimate: { column: { type: 'integer', nullable: true }, args: { add: z.int().min(0).nullish() }, apiV1: 'estimate', schema: z.int().nullable(), backup: true, template: false, csv: [] },
      note: { column: { type: 'text', nullable: true }, args: { add: z.string().nullish() }, apiV1: 'note', schema: z.string().nullable(), backup: false, template: false, csv: [] },
    } as const satisfies FieldTable;
    const inputs = restoredAsTheyAre(wider);
    expect(inputs.map(({ field, key }) => ({ field, key }))).toEqual([{ field: 'estimate', key: 'estimate' }]);
    expect(fieldsAsTheyAre({ estimate: 25, note: 'n' }, inputs)).toEqual({ estimate: 25 });
    // What item_add would refuse is left out, not the task with it.
    expect(fieldsAsTheyAre({ estimate: -1 }, inputs)).toEqual({});
    expect(fieldsAsTheyAre({ estimate: null }, inputs)).toEqual({});
  });
});
