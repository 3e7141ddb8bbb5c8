import type { ColumnType } from '@doable/contracts-sync';

/** A value a read computes beside a row's columns, in SQL, and the column type it reads as. */
export interface ComputedSql {
  readonly sql: string;
  readonly type: ColumnType;
}

/**
 * Where a row of a resource's table is in a read's SQL: its alias, and the SQL of the values the
 * read computes beside the columns (a task's comment count).
 */
export interface RowSql {
  readonly alias: string;
  readonly computed: Readonly<Record<string, ComputedSql>>;
}

/**
 * A dialect's object of one row as JSON text in SQL (its writer's SQL twin, from the same field
 * table, in @doable/sync-dialects), byte for byte what its JavaScript writer and JSON.stringify
 * make of the row the read would have answered; NULL for a row it cannot write so. A repository
 * places it in its read; the dialect never learns which rows a user may see.
 */
export type ObjectJsonSql = (row: RowSql) => string;
