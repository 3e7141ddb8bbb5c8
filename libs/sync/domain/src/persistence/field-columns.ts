import { type ColumnType, type FieldTable } from '@doable/contracts-sync';

/** How a stored column is selected: ids (and id arrays) as text, since the domain's ids are strings. */
const SELECTED: { readonly [T in ColumnType]?: (name: string) => string } = {
  bigint: (name) => `${name}::text`,
  'bigint[]': (name) => `${name}::text[] AS ${name}`,
};

/**
 * A field table's row as a SELECT list, in the table's order: each stored column, and each line a
 * read computes that `computed` gives the SQL of (`shared` of a project). Lines computed elsewhere
 * (a count added after the read, a key a dialect makes up) are not selected.
 */
export function selectList(table: FieldTable, computed: Readonly<Record<string, string>> = {}): string {
  return Object.entries(table)
    .flatMap(([name, line]) => {
      if (line.internal) return [];
      if (line.column) return [SELECTED[line.column.type]?.(name) ?? name];
      const sql = computed[name];
      return sql === undefined ? [] : [`${sql} AS ${name}`];
    })
    .join(', ');
}

/** The table's timestamp columns (what withWireTimestamps reads as wire text). */
export function timestampColumns(table: FieldTable): string[] {
  return Object.entries(table).flatMap(([name, line]) => (line.column?.type === 'timestamptz' && !line.internal ? [name] : []));
}

type Nothing<T> = [T] extends [never] ? true : false;
/** The fields of a table that are stored columns an object read selects (all but a service's own). */
export type StoredField<T extends FieldTable> = { [F in keyof T]: T[F]['column'] extends null ? never : T[F] extends { readonly internal: true } ? never : F }[keyof T];
/**
 * Whether a row type has a key for each stored column of its table, and every key of it is a line
 * of the table: [true, true] when it does (Follows turns anything else into a compile error).
 */
export type RowFollowsTable<Row, T extends FieldTable> = [Nothing<Exclude<StoredField<T>, keyof Row>>, Nothing<Exclude<keyof Row, keyof T>>];
export type Follows<T extends [true, true]> = T;
/** The fields of a table that are timestamp columns (what a wire read gives as text). */
export type TimestampField<T extends FieldTable> = { [F in keyof T]: T[F]['column'] extends { readonly type: 'timestamptz' } ? (T[F] extends { readonly internal: true } ? never : F) : never }[keyof T];
