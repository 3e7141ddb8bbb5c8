/**
 * A timestamp column in SQL as the Sync API and api/v1 write it (wireTimestamp: milliseconds, then
 * `000Z`), formatted by PostgreSQL. Both truncate to milliseconds, so the text is the same
 * (items/item-wire-columns.integration-spec.ts in the dialects keeps checking it).
 */
export const wireTimestampSql = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"000Z"')`;

/**
 * A column list with the named timestamp columns read as wire text: the pg driver parses no
 * Date for them and the writers format none. For reads whose rows are only written out (a full
 * sync: 5,000 tasks and their comments, sections and projects are about 20,000 timestamps).
 * The names must appear in the list as column names, bare or with a table alias (`w.created_at`).
 */
export function withWireTimestamps(columns: string, names: readonly string[]): string {
  const pattern = new RegExp(`(?<![.\\w])((?:\\w+\\.)?)(${names.join('|')})\\b`, 'g');
  return columns.replace(pattern, (_column, alias: string, name: string) => `${wireTimestampSql(`${alias}${name}`)} AS ${name}`);
}

/** A row read with `withWireTimestamps`: those columns are wire text (null where the column is nullable). */
export type WireTimestamps<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? string | null : string };
