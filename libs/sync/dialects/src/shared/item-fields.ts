import type { Item, ItemRow, StoredDue } from '@doable/sync-domain';
import { type ApiDue, type ApiTask, type FieldTable, type RowRender, TASK_FIELDS } from '@doable/contracts-sync';
import { wireTimestamp } from './wire-format';

/** The keys of the due object writeDue writes, in its order (its SQL twin, field-json.sql.ts, writes them from this list). */
export const DUE_KEYS = ['date', 'timezone', 'string', 'lang', 'is_recurring'] as const;

/** The due object as v9 and api/v1 send it; `datetime` is the v1 convenience for timed dues. */
export function writeDue(due: StoredDue | null): ApiDue | null {
  if (!due) return null;
  return { date: due.date, timezone: due.timezone, string: due.string, lang: due.lang, is_recurring: due.is_recurring };
}

/** A timestamp in wire text; one PostgreSQL already formatted (ITEM_WIRE_COLUMNS) is that text. */
export function timestampOrNull(value: Date | string | null): string | null {
  if (typeof value === 'string') return value;
  return value ? wireTimestamp(new Date(value)) : null;
}

type Lines = typeof TASK_FIELDS;
/** The table's fields the current dialects read from the row (every render but `null`). */
type ReadField = { [F in keyof Lines]: Lines[F] extends { readonly render: 'null' } ? never : Lines[F] extends { readonly apiV1: string } | { readonly v9: string } ? F : never }[keyof Lines];
type Holds<T extends true> = T;
/** Each field the current dialects read is a field of the stored task: a compile error otherwise. */
export type TaskTableReadsItems = Holds<[Exclude<ReadField, keyof Item>] extends [never] ? true : false>;

type ReadItem = (item: ItemRow) => unknown;

/** Each way the table says a field is written, from the row (exhaustive: a new kind must say how). */
const ROW_RENDERS: { readonly [R in RowRender]: (field: keyof Item) => ReadItem } = {
  value: (field) => (item) => item[field],
  timestamp: (field) => (item) => timestampOrNull(item[field] as Date | string | null),
  due: (field) => (item) => writeDue(item[field] as StoredDue | null),
  count: (field) => (item) => item[field] ?? 0,
  null: () => () => null,
};

/**
 * The writer of a current dialect's task, from a task field table: its keys in the table's
 * order, each read as the line says. A function of the table (the production writers below are
 * it applied to TASK_FIELDS), so a spec can derive the writers of a table with a line more.
 */
export function taskRowWriter(table: FieldTable, dialect: 'apiV1' | 'v9'): (item: ItemRow) => Record<string, unknown> {
  const fields = Object.entries(table).flatMap(([name, line]) => {
    const key = line[dialect];
    return key === undefined ? [] : [{ key, read: ROW_RENDERS[line.render ?? 'value'](name as keyof Item) }];
  });
  // A loop over a fixed list, not a spread per field: a full sync writes thousands of tasks.
  return (item) => {
    const written: Record<string, unknown> = {};
    for (const field of fields) written[field.key] = field.read(item);
    return written;
  };
}

/** The api/v1 task (sync and REST), from the field table, as ApiTask (the same table's type) says it. */
export const writeApiV1Item = taskRowWriter(TASK_FIELDS, 'apiV1') as (item: ItemRow) => ApiTask;
/** The v9 item, from the field table. */
export const writeV9Item = taskRowWriter(TASK_FIELDS, 'v9');
