import { type FieldTable, PROJECT_FIELDS } from '@doable/contracts-sync';
import type { Project } from '@doable/sync-domain';
import { RESTORED_OBJECTS } from '../portability/full-sync-snapshot';
import { templateTreeOf } from '../templates/template-tree';
import { TODOIST_CSV_COLUMNS } from '../templates/todoist-csv';

/**
 * The project table's `backup`, `template` and `csv` flags against the code that reads backups
 * and writes templates by hand (their shapes are Todoist's, read from any generation): a field
 * the table says a backup keeps is read back by a restore, and a template carries the fields the
 * table says it does.
 */
const lines: FieldTable = PROJECT_FIELDS;

describe('the project field table against backups and templates', () => {
  it('has a restore read back every api/v1 field a backup keeps, and keep every field a restore reads', () => {
    const kept = Object.values(lines).flatMap((line) => (line.backup && line.apiV1 ? [line.apiV1] : []));
    const read = Object.keys(RESTORED_OBJECTS.project.shape);
    expect(kept.filter((key) => !read.includes(key))).toEqual([]);
    // What a restore reads beyond them are other dialects' spellings of the same fields (a v7 backup, a REST v2 export).
    expect(read.filter((key) => !kept.includes(key))).toEqual(['item_order', 'is_inbox_project']);
  });

  it('carries in a template the fields the table says, in Todoist CSV columns', () => {
    const project = { view_style: 'board' } as Project;
    const tree = templateTreeOf({ project, sections: [], tasks: [], notes: [], names: new Map() }, { relativeDates: false });
    expect(Object.keys(tree.meta)).toEqual(Object.entries(lines).flatMap(([name, line]) => (line.template ? [name] : [])));
    const columns: readonly string[] = TODOIST_CSV_COLUMNS;
    expect(Object.values(lines).flatMap((line) => line.csv).filter((column) => !columns.includes(column))).toEqual([]);
  });
});
