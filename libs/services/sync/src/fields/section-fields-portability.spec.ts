import { type FieldTable, SECTION_FIELDS } from '@doable/contracts-sync';
import type { Project, Section } from '@doable/sync-domain';
import { RESTORED_OBJECTS } from '../portability/full-sync-snapshot';
import { templateTreeOf } from '../templates/template-tree';
import { TODOIST_CSV_COLUMNS } from '../templates/todoist-csv';

/**
 * The section table's `backup`, `template` and `csv` flags against the code that reads backups
 * and writes templates by hand: a field the table says a backup keeps is read back by a restore,
 * and a template's section carries the fields the table says it does.
 */
const lines: FieldTable = SECTION_FIELDS;

describe('the section field table against backups and templates', () => {
  it('has a restore read back every api/v1 field a backup keeps, and keep every field a restore reads', () => {
    const kept = Object.values(lines).flatMap((line) => (line.backup && line.apiV1 ? [line.apiV1] : []));
    const read = Object.keys(RESTORED_OBJECTS.section.shape);
    expect(kept.filter((key) => !read.includes(key))).toEqual([]);
    // What a restore reads beyond them is REST's spelling of the order.
    expect(read.filter((key) => !kept.includes(key))).toEqual(['order']);
  });

  it('carries in a template the fields the table says, in Todoist CSV columns', () => {
    const section = { id: '1', name: 'Doing' } as Section;
    const tree = templateTreeOf({ project: { view_style: 'list' } as Project, sections: [section], tasks: [], notes: [], names: new Map() }, { relativeDates: false });
    // A template's section is its name and its tasks (not a field).
    expect(Object.keys(tree.sections[0]).filter((key) => key !== 'tasks')).toEqual(Object.entries(lines).flatMap(([name, line]) => (line.template ? [name] : [])));
    const columns: readonly string[] = TODOIST_CSV_COLUMNS;
    expect(Object.values(lines).flatMap((line) => line.csv).filter((column) => !columns.includes(column))).toEqual([]);
  });
});
