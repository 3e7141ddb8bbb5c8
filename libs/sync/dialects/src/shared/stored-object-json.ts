import { createHash } from 'node:crypto';
import { type ObjectJsonSql, type RowSql, sqlLiteral } from '@doable/sync-domain';
import type { SplitObjectSql } from './field-json.sql';

/**
 * A table whose rows PostgreSQL keeps as the dialects write them (issue #48): each dialect's text
 * of a row up to the members a read computes (SplitObjectSql's head), in a column of the row,
 * written by a trigger whenever the row is written (migrations StoredTaskJson, StoredNoteJson).
 * NULL where PostgreSQL cannot write the row as JavaScript would: the read then leaves it to the
 * JavaScript writer, as before.
 */
export interface StoredJsonTable {
  /** The function the table's trigger runs for each row written. */
  readonly fn: string;
  /** The row the trigger writes the heads of: a copy of NEW under this alias. */
  readonly row: RowSql;
  /** The column of each dialect's text. */
  readonly columns: Readonly<Record<string, string>>;
}

export const STORED_TASK_JSON = {
  fn: 'sync.items_stored_json',
  row: { alias: 'item', computed: {} },
  columns: { apiV1: 'api_v1_json', v9: 'v9_json', restV2: 'rest_v2_json' },
} as const satisfies StoredJsonTable;

/** A comment's api/v1 and v9 texts are the same (the comment table gives v9 no key of its own): one column holds both. */
export const STORED_NOTE_JSON = {
  fn: 'sync.notes_stored_json',
  row: { alias: 'note', computed: {} },
  columns: { apiV1: 'api_v1_json' },
} as const satisfies StoredJsonTable;

/**
 * What a trigger's body says about a column's SQL: the column and a digest of the head's SQL, as
 * a comment line. A read checks for the stamp of the SQL this code would write, so a stored text
 * is only read where this release's renderers wrote it: a table line added without a migration
 * that replaces the function (issue #46's added field), or an older release beside a newer
 * function, reads the rows whole instead (the JavaScript writer), never a text of another shape.
 */
export function stampOf(table: StoredJsonTable, column: string, split: SplitObjectSql): string {
  return `-- ${column} ${createHash('md5').update(split.head(table.row)).digest('hex')}`;
}

/**
 * A dialect's text of a row as a read gives it: the stored head, then the members the read
 * computes; NULL (not written: the read falls back to the JavaScript writer) unless the installed
 * trigger writes this release's head. The check is a sub-select on no column of the row, which
 * PostgreSQL runs once per statement (an InitPlan).
 */
export function storedObjectJsonSql(table: StoredJsonTable, column: string, split: SplitObjectSql): ObjectJsonSql {
  const current = `(SELECT strpos(fn.prosrc, ${sqlLiteral(stampOf(table, column, split))}) > 0 FROM pg_catalog.pg_proc AS fn WHERE fn.oid = to_regprocedure(${sqlLiteral(`${table.fn}()`)}))`;
  return (row: RowSql) => `(CASE WHEN ${current} THEN ${row.alias}.${column} || ${split.rest(row)} END)`;
}

/** A text stored where the table can be cut so (SplitObjectSql), else written whole at read time. */
export function storedOrWholeSql(table: StoredJsonTable, column: string, split: SplitObjectSql | undefined, whole: () => ObjectJsonSql): ObjectJsonSql {
  return split ? storedObjectJsonSql(table, column, split) : whole();
}
