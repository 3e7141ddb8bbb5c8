import { COMMENT_FIELDS, type FieldTable } from '@doable/contracts-sync';
import type { Note, Project } from '@doable/sync-domain';
import { RESTORED_OBJECTS } from '../portability/full-sync-snapshot';
import { templateTreeOf } from '../templates/template-tree';
import { TODOIST_CSV_COLUMNS } from '../templates/todoist-csv';

/**
 * The comment table's `backup`, `template` and `csv` flags against the code that reads backups
 * and writes templates by hand: a field the table says a backup keeps is read back by a restore,
 * and a template's comment carries the fields the table says it does.
 */
const lines: FieldTable = COMMENT_FIELDS;

describe('the comment field table against backups and templates', () => {
  it('has a restore read back every api/v1 field a backup keeps, and keep every field a restore reads', () => {
    const kept = Object.values(lines).flatMap((line) => (line.backup && line.apiV1 ? [line.apiV1] : []));
    const read = Object.keys(RESTORED_OBJECTS.note.shape);
    expect(kept.filter((key) => !read.includes(key))).toEqual([]);
    expect(read.filter((key) => !kept.includes(key))).toEqual([]);
  });

  it('carries in a template the fields the table says, in Todoist CSV columns', () => {
    const note = { id: '1', item_id: null, content: 'Read me', posted_uid: '7' } as Note;
    const tree = templateTreeOf({ project: { view_style: 'list' } as Project, sections: [], tasks: [], notes: [note], names: new Map([['7', 'Ada']]) }, { relativeDates: false });
    // A template's comment is its content and its author (posted_uid).
    expect(tree.notes).toEqual([{ content: 'Read me', author: { name: 'Ada', id: '7' } }]);
    expect(Object.entries(lines).flatMap(([name, line]) => (line.template ? [name] : []))).toEqual(['posted_uid', 'content']);
    const columns: readonly string[] = TODOIST_CSV_COLUMNS;
    expect(Object.values(lines).flatMap((line) => line.csv).filter((column) => !columns.includes(column))).toEqual([]);
  });
});
