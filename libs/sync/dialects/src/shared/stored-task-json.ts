import { createHash } from 'node:crypto';
import { type ObjectJsonSql, type RowSql, sqlLiteral } from '@doable/sync-domain';
import type { SplitObjectSql } from './field-json.sql';

/**
 * The columns of sync.items where PostgreSQL keeps each task's text as a dialect writes it, up to
 * the members a read computes (SplitObjectSql's head; migration StoredTaskJson, whose trigger
 * writes them whenever a task row is written). NULL where PostgreSQL cannot write the task as
 * JavaScript would: the read then leaves the task to the JavaScript writer, as before.
 */
export const STORED_TASK_JSON = { apiV1: 'api_v1_json', v9: 'v9_json', restV2: 'rest_v2_json' } as const;

/** The function the trigger of migration StoredTaskJson runs for each task row written. */
export const TASK_JSON_FUNCTION = 'sync.items_stored_json';

/** The row the trigger writes the heads of: `item`, NEW with its generated column computed. */
export const TRIGGER_ROW: RowSql = { alias: 'item', computed: {} };

/**
 * What the trigger's body says about a column's SQL: the column and a digest of the head's SQL,
 * as a comment line. A read checks for the stamp of the SQL this code would write, so a stored
 * text is only read where this release's renderers wrote it: a table line added without a
 * migration that replaces the function (issue #46's added field), or an older release beside a
 * newer function, reads the task whole instead (the JavaScript writer), never a text of another shape.
 */
export function stampOf(column: string, split: SplitObjectSql): string {
  return `-- ${column} ${createHash('md5').update(split.head(TRIGGER_ROW)).digest('hex')}`;
}

/**
 * A dialect's task text as a read gives it: the stored head, then the members the read computes;
 * NULL (not written: the read falls back to the JavaScript writer) unless the installed trigger
 * writes this release's head. The check is a sub-select on no column of the row, which PostgreSQL
 * runs once per statement (an InitPlan).
 */
export function storedObjectJsonSql(split: SplitObjectSql, column: string): ObjectJsonSql {
  const current = `(SELECT strpos(fn.prosrc, ${sqlLiteral(stampOf(column, split))}) > 0 FROM pg_catalog.pg_proc AS fn WHERE fn.oid = to_regprocedure(${sqlLiteral(`${TASK_JSON_FUNCTION}()`)}))`;
  return (row: RowSql) => `(CASE WHEN ${current} THEN ${row.alias}.${column} || ${split.rest(row)} END)`;
}

/** A task text stored where the table can be cut so (SplitObjectSql), else written whole at read time. */
export function storedOrWholeSql(split: SplitObjectSql | undefined, column: string, whole: () => ObjectJsonSql): ObjectJsonSql {
  return split ? storedObjectJsonSql(split, column) : whole();
}
