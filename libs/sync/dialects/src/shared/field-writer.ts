import type { StoredDue } from '@doable/sync-domain';
import type { FieldLine, FieldTable, RowRender, WrittenWhen } from '@doable/contracts-sync';
import { timestampOrNull, writeDue } from './item-fields';

/**
 * The api/v1 and v9 writers of a resource, from its field table (projects, sections, labels,
 * filters, comments; the task has its own, taskRowWriter). A line is written under its key in
 * the dialect, in the table's order, read as its render says, and as its optional parts say:
 * `fixed` (a value no field backs), `from` (another field of the row), `absent` (the value for
 * null), `emptyAsNull`, `wrap` (inside an object), and `when` (left out unless its condition
 * holds; v9 by `v9When` where it differs).
 */

type Row = Readonly<Record<string, unknown>>;
type Read = (row: Row) => unknown;

/** Each render, from the row (exhaustive: a new kind must say how). */
const RENDERS: { readonly [R in RowRender]: (field: string) => Read } = {
  value: (field) => (row) => row[field],
  timestamp: (field) => (row) => timestampOrNull(row[field] as Date | string | null),
  due: (field) => (row) => writeDue(row[field] as StoredDue | null),
  count: (field) => (row) => row[field] ?? 0,
  null: () => () => null,
};

const isEmpty = (value: unknown): boolean => (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && value !== null && Object.keys(value).length === 0);

function readerOf(name: string, line: FieldLine): Read {
  const fixed = line.fixed;
  if (fixed !== undefined) return () => fixed;
  const field = line.from ?? name;
  let read = RENDERS[line.render ?? 'value'](field);
  // A value a read computes (a project's `role`) is null where the read did not compute it.
  if (line.column === null && (line.render ?? 'value') === 'value') {
    const computed = read;
    read = (row) => computed(row) ?? null;
  }
  if (line.emptyAsNull) {
    const value = read;
    read = (row) => {
      const written = value(row);
      return isEmpty(written) ? null : written;
    };
  }
  const absent = line.absent;
  if (absent !== undefined) {
    const value = read;
    read = (row) => value(row) ?? absent;
  }
  const wrap = line.wrap;
  if (wrap !== undefined) {
    const inner = read;
    read = (row) => ({ [wrap]: inner(row) });
  }
  return read;
}

function conditionOf(when: WrittenWhen | undefined, name: string, line: FieldLine): ((row: Row) => boolean) | undefined {
  if (when === undefined) return undefined;
  if (when === 'true') {
    const field = line.from ?? name;
    return (row) => row[field] === true;
  }
  if ('set' in when) return (row) => row[when.set] !== null && row[when.set] !== undefined;
  if ('unset' in when) return (row) => row[when.unset] === null || row[when.unset] === undefined;
  const values: readonly unknown[] = when.in;
  return (row) => values.includes(row[when.field]);
}

/**
 * The writer of a current dialect's object from a field table: a function of the table (the
 * production writers are it applied to the resource's table), so a spec can derive the writer of
 * a table with a line more.
 */
export function fieldRowWriter<R extends object>(table: FieldTable, dialect: 'apiV1' | 'v9'): (row: R) => Record<string, unknown> {
  const fields = Object.entries(table).flatMap(([name, line]) => {
    const key = line[dialect];
    const when = dialect === 'v9' ? (line.v9When ?? line.when) : line.when;
    return key === undefined ? [] : [{ key, read: readerOf(name, line), written: conditionOf(when, name, line) }];
  });
  // A loop over a fixed list, not a spread per field: a full sync writes thousands of these.
  return (row) => {
    const written: Record<string, unknown> = {};
    for (const field of fields) {
      if (field.written && !field.written(row as Row)) continue;
      written[field.key] = field.read(row as Row);
    }
    return written;
  };
}

/**
 * The fields of a table a current dialect reads from the row: each line it writes that is not
 * fixed or always null, under its `from` or its own name, and each field a `when` names.
 */
type Lines<T> = T[keyof T];
type ReadName<T extends FieldTable, F extends keyof T> = T[F] extends { readonly fixed: unknown } | { readonly render: 'null' }
  ? never
  : T[F] extends { readonly from: infer S extends string }
    ? S
    : F;
type WhenName<W> = W extends { readonly set: infer S } ? S : W extends { readonly unset: infer S } ? S : W extends { readonly field: infer S } ? S : never;
export type FieldsRead<T extends FieldTable, D extends 'apiV1' | 'v9'> =
  | { [F in keyof T]: T[F] extends { readonly [K in D]: string } ? ReadName<T, F> : never }[keyof T]
  | WhenName<Lines<T> extends infer L ? (L extends { readonly when: infer W } ? W : L extends { readonly v9When: infer W } ? W : never) : never>;
/** [true] when every field a table's writers read is a field of the row (Reads turns anything else into a compile error). */
export type ReadsRow<Row, T extends FieldTable> = [[Exclude<FieldsRead<T, 'apiV1'> | FieldsRead<T, 'v9'>, keyof Row>] extends [never] ? true : false];
export type Reads<T extends [true]> = T;
