import type { ColumnType, FieldLine, FieldTable, RowRender, WrittenWhen } from '@doable/contracts-sync';
import { conditionalMemberSql, jsonbTextSql, jsonLiteral, memberSql, type ObjectJsonSql, type ObjectMember, objectRestSql, objectTextSql, plainMemberSql, type RowSql, sqlLiteral, wireTimestampSql } from '@doable/sync-domain';
import { DUE_KEYS } from './item-fields';
import { type DueKeys, eitherDueSql } from './stored-due.sql';

/**
 * The api/v1 and v9 writers of a field table (fieldRowWriter, and taskRowWriter for the task) in
 * SQL: one row's object as JSON text, byte for byte what the JavaScript writer and JSON.stringify
 * make of the row the read would have answered (json-text.sql.ts in @doable/sync-domain says
 * how). Same lines, same order, same parts; a line whose way of writing has no SQL here fails
 * when the writer is made (at load), never per row.
 *
 * How JavaScript sees a value is what the SQL follows: the pg driver reads ids as text (the SELECT
 * lists cast them), integers as numbers, jsonb through JSON.parse (a stored JSON null is null too),
 * arrays as arrays; JSON.stringify leaves out a key whose value is undefined.
 */

/** A value in SQL: its JSON text (for a value that is not null), and when it is null as JavaScript sees it. */
export interface ValueSql {
  readonly text: string;
  /** An SQL boolean: the value is null (or undefined); null when it never is. */
  readonly isNull: string | null;
  /** `text` writes `null` itself where the value is null (cheaper than asking isNull first). */
  readonly writesNull?: true;
  /** `text` may be SQL NULL: PostgreSQL cannot write the value as JavaScript would (json-text.sql.ts). */
  readonly mayBeUnwritten?: true;
}

/** A row's field as the read gives it: a column, or a value the read computes. */
interface FieldSql {
  readonly sql: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
}

/** The JSON text of a value of each type, the value not null (what the pg driver reads, then JSON.stringify). */
const VALUE_TEXT: { readonly [T in ColumnType]: (sql: string) => string } = {
  bigint: (sql) => `('"' || ${sql}::text || '"')`,
  text: (sql) => `to_json(${sql})::text`,
  smallint: (sql) => `${sql}::text`,
  integer: (sql) => `${sql}::text`,
  boolean: (sql) => `${sql}::text`,
  jsonb: (sql) => jsonbTextSql(sql),
  'text[]': (sql) => `to_json(${sql})::text`,
  'bigint[]': (sql) => `to_json(${sql}::text[])::text`,
  // A Date's JSON is toISOString's, not the wire text: the table writes timestamps by their render.
  timestamptz: () => {
    throw new Error('a timestamp column is written by the `timestamp` render, not as a value');
  },
};

/** When a field reads as null in JavaScript: SQL NULL, and a stored jsonb null. */
function isNullSql(field: FieldSql): string | null {
  if (field.type === 'jsonb') return field.nullable ? `(${field.sql} IS NULL OR jsonb_typeof(${field.sql}) = 'null')` : `(jsonb_typeof(${field.sql}) = 'null')`;
  return field.nullable ? `(${field.sql} IS NULL)` : null;
}

/** The JSON text of a value, null included. */
export function jsonTextOf(value: ValueSql): string {
  return value.isNull === null || value.writesNull ? value.text : `(CASE WHEN ${value.isNull} THEN 'null' ELSE ${value.text} END)`;
}

function valueOf(field: FieldSql): ValueSql {
  const value = { text: VALUE_TEXT[field.type](field.sql), isNull: isNullSql(field) };
  // Only jsonbTextSql answers NULL for a value (one JavaScript could write otherwise).
  return field.type === 'jsonb' ? { ...value, mayBeUnwritten: true } : value;
}

/** A member written always: through format() where its text is never NULL (objectTextSql). */
export function alwaysMemberSql(key: string, value: ValueSql): ObjectMember {
  const text = jsonTextOf(value);
  return value.mayBeUnwritten ? memberSql(key, text) : plainMemberSql(key, text);
}

/** JavaScript's falsiness of a jsonb value (SQL NULL included): `!value`. */
function jsonbFalsySql(sql: string): string {
  return `(${sql} IS NULL OR ${sql} IN ('null'::jsonb, 'false'::jsonb, '0'::jsonb, '""'::jsonb))`;
}

/**
 * The due object as writeDue writes it from the stored due: null for a falsy one, else its keys
 * in DUE_KEYS's order, each as stored and left out where the stored due has none (undefined).
 */
function dueOf(field: FieldSql): ValueSql {
  if (field.type !== 'jsonb') throw new Error(`the due render reads a jsonb column, not ${field.type}`);
  const due = field.sql;
  const object = (keys: DueKeys) =>
    objectTextSql(
      DUE_KEYS.map((name) => {
        const key = keys(name);
        if (key.present !== null) return conditionalMemberSql(name, key.text, key.present);
        return key.mayBeUnwritten ? memberSql(name, key.text) : plainMemberSql(name, key.text);
      }),
    );
  return {
    text: `(CASE WHEN ${due} IS NULL THEN 'null'
        WHEN jsonb_typeof(${due}) = 'object' THEN ${eitherDueSql(due, object)}
        WHEN ${jsonbFalsySql(due)} THEN 'null' ELSE '{}' END)`,
    isNull: jsonbFalsySql(due),
    writesNull: true,
    mayBeUnwritten: true,
  };
}

/** Each render, from the field it reads (field-writer.ts's RENDERS, case for case). */
const RENDERS: { readonly [R in RowRender]: (field: () => FieldSql) => ValueSql } = {
  value: (field) => valueOf(field()),
  timestamp: (read) => {
    const field = read();
    if (field.type !== 'timestamptz') throw new Error(`the timestamp render reads a timestamptz column, not ${field.type}`);
    return { text: `('"' || ${wireTimestampSql(field.sql)} || '"')`, isNull: isNullSql(field) };
  },
  due: (field) => dueOf(field()),
  count: (read) => {
    const field = read();
    if (field.type !== 'integer' && field.type !== 'smallint') throw new Error(`the count render reads an integer, not ${field.type}`);
    // coalesce names the value once: a computed count (a subquery) is run once.
    return { text: `coalesce(${field.sql}, 0)::text`, isNull: null };
  },
  null: () => ({ text: `'null'`, isNull: 'true' }),
};

/** Which JavaScript writer the SQL is the twin of: fieldRowWriter, or taskRowWriter (the lines as they are, no parts). */
export type RowWriterKind = 'fieldRowWriter' | 'taskRowWriter';

/** The parts of a line taskRowWriter does not read: a task line with one is refused rather than written otherwise. */
const PARTS = ['fixed', 'from', 'when', 'v9When', 'absent', 'wrap', 'emptyAsNull'] as const;

/** A row's field by name: its column, or the read's computed value; refused when the read has neither. */
function fieldOf(table: FieldTable, name: string, row: RowSql): FieldSql {
  const line = table[name];
  if (line?.column && !line.internal) return { sql: `${row.alias}.${name}`, type: line.column.type, nullable: line.column.nullable };
  const computed = row.computed[name];
  if (computed) return { sql: `(${computed.sql})`, type: computed.type, nullable: true };
  throw new Error(`field ${name} is no column the read selects and has no SQL from the read (RowSql.computed)`);
}

/** Whether a line's value may be empty (fieldRowWriter's isEmpty), in SQL; null when it never is. */
function isEmptySql(render: RowRender, field: () => FieldSql): string | null {
  if (render === 'due') throw new Error('emptyAsNull on a due: writeDue writes {} for a stored value that is no object');
  if (render !== 'value') return null;
  const read = field();
  if (read.type === 'jsonb') return `(${read.sql} IN ('{}'::jsonb, '[]'::jsonb))`;
  if (read.type === 'text[]' || read.type === 'bigint[]') return `(cardinality(${read.sql}) = 0)`;
  return null;
}

/** A line's value as the writer reads it (fieldRowWriter's readerOf). */
function lineValue(table: FieldTable, name: string, line: FieldLine, row: RowSql): ValueSql {
  if (line.fixed !== undefined) return { text: jsonLiteral(line.fixed), isNull: null };
  const render = line.render ?? 'value';
  const field = () => fieldOf(table, line.from ?? name, row);
  const rendered = RENDERS[render](field);
  let value = rendered;
  if (line.emptyAsNull) {
    const empty = isEmptySql(render, field);
    if (empty !== null) value = { text: value.text, isNull: value.isNull === null ? empty : `(${value.isNull} OR ${empty})` };
  }
  if (line.absent !== undefined) value = { text: value.isNull === null ? value.text : `(CASE WHEN ${value.isNull} THEN ${jsonLiteral(line.absent)} ELSE ${value.text} END)`, isNull: null };
  if (line.wrap !== undefined) value = { text: `(${sqlLiteral(`{${JSON.stringify(line.wrap)}:`)} || ${jsonTextOf(value)} || '}')`, isNull: null };
  // The parts above keep a NULL text NULL.
  return rendered.mayBeUnwritten ? { ...value, mayBeUnwritten: true } : value;
}

/** When a key is written, in SQL (fieldRowWriter's conditionOf); undefined for always. */
function conditionSql(table: FieldTable, when: WrittenWhen | undefined, name: string, line: FieldLine, row: RowSql): string | undefined {
  if (when === undefined) return undefined;
  if (when === 'true') {
    const field = fieldOf(table, line.from ?? name, row);
    // `=== true`: only a boolean, or a jsonb true, ever is.
    if (field.type === 'boolean') return `(${field.sql} IS TRUE)`;
    if (field.type === 'jsonb') return `(${field.sql} = 'true'::jsonb)`;
    return 'false';
  }
  if ('set' in when) return `NOT coalesce(${isNullSql(fieldOf(table, when.set, row)) ?? 'false'}, false)`;
  if ('unset' in when) return isNullSql(fieldOf(table, when.unset, row)) ?? 'false';
  const field = fieldOf(table, when.field, row);
  // `includes` of strings: only a value JavaScript reads as a string can be one of them.
  const values = when.in.map(sqlLiteral).join(', ');
  if (field.type === 'text') return `(${field.sql} IN (${values}))`;
  if (field.type === 'bigint') return `(${field.sql}::text IN (${values}))`;
  if (field.type === 'jsonb') return `(${field.sql} IN (${when.in.map((value) => `${jsonLiteral(value)}::jsonb`).join(', ')}))`;
  return 'false';
}

/**
 * Refuses, when a writer is made, a line its JavaScript twin writes in a way the SQL would not.
 * What depends on a value the read computes is refused when the read's SQL is made.
 */
function checkLine(table: FieldTable, name: string, line: FieldLine, kind: RowWriterKind): void {
  if (line.internal) throw new Error(`field ${name} is internal (never selected) but has a key: its writer writes undefined`);
  const column = line.fixed === undefined ? table[line.from ?? name]?.column : undefined;
  if (column) {
    // The renders' own checks, on a placeholder of the column's type.
    const read = () => ({ sql: 'checked', type: column.type, nullable: column.nullable });
    const render = line.render ?? 'value';
    RENDERS[render](read);
    if (line.emptyAsNull) isEmptySql(render, read);
  }
  if (kind === 'fieldRowWriter') return;
  const part = PARTS.find((key) => line[key] !== undefined);
  if (part) throw new Error(`task field ${name} has \`${part}\`, which taskRowWriter does not read: write the table with fieldRowWriter first`);
  if (line.column === null && (line.render ?? 'value') === 'value') {
    throw new Error(`task field ${name} has no column and is written as its value: taskRowWriter writes what the read left (undefined), give it a render`);
  }
}

/** The lines a dialect writes, in the table's order, each checked. */
function writtenLines(table: FieldTable, dialect: 'apiV1' | 'v9', kind: RowWriterKind): Array<{ name: string; key: string; line: FieldLine; when: WrittenWhen | undefined }> {
  return Object.entries(table).flatMap(([name, line]) => {
    const key = line[dialect];
    if (key === undefined) return [];
    checkLine(table, name, line, kind);
    const when = kind === 'taskRowWriter' ? undefined : dialect === 'v9' ? (line.v9When ?? line.when) : line.when;
    return [{ name, key, line, when }];
  });
}

/**
 * The SQL twin of `fieldRowWriter(table, dialect)` (or of `taskRowWriter`): the object of the row
 * at `row.alias` as JSON text, NULL where PostgreSQL cannot write it as JavaScript would.
 */
export function objectJsonSql(table: FieldTable, dialect: 'apiV1' | 'v9', kind: RowWriterKind): ObjectJsonSql {
  const lines = writtenLines(table, dialect, kind);
  return (row) =>
    objectTextSql(
      lines.map(({ name, key, line, when }) => {
        const value = lineValue(table, name, line, row);
        const condition = conditionSql(table, when, name, line, row);
        return condition === undefined ? alwaysMemberSql(key, value) : conditionalMemberSql(key, jsonTextOf(value), condition);
      }),
    );
}

/**
 * Whether a line's value is one the read computes beside the row (a task's comment count), not
 * one the row's columns hold: such a member cannot be stored with the row.
 */
export function readsComputed(table: FieldTable, name: string, line: FieldLine): boolean {
  if (line.fixed !== undefined || line.render === 'null') return false;
  const column = table[line.from ?? name]?.column;
  return !column || line.internal === true;
}

/**
 * A row's object cut where the members the read computes begin: `head`, the object's text up to
 * them without its closing brace (what the row's columns alone give, so PostgreSQL can keep it
 * with the row), and `rest`, those members and the brace, which a read appends (objectRestSql).
 */
export interface SplitObjectSql {
  readonly head: ObjectJsonSql;
  readonly rest: ObjectJsonSql;
}

/**
 * Cuts a list of members (each marked computed or not) into a SplitObjectSql's two lists, in
 * order; undefined where it cannot be cut so: a member the row holds comes after one the read
 * computes (a line added at the end of the table: the stored text would put keys in another
 * order), or none comes first. The read then writes the object whole.
 */
export function splitMembers<T>(items: readonly T[], computed: (item: T) => boolean): { head: T[]; rest: T[] } | undefined {
  const first = items.findIndex(computed);
  const cut = first < 0 ? items.length : first;
  const head = items.slice(0, cut);
  const rest = items.slice(cut);
  return head.length === 0 || rest.some((item) => !computed(item)) ? undefined : { head, rest };
}

/** objectJsonSql cut into the stored head and the read's rest (SplitObjectSql): the two joined are objectJsonSql's text. Undefined where splitMembers cannot cut it. */
export function splitObjectJsonSql(table: FieldTable, dialect: 'apiV1' | 'v9', kind: RowWriterKind): SplitObjectSql | undefined {
  const split = splitMembers(writtenLines(table, dialect, kind), ({ name, line }) => readsComputed(table, name, line));
  if (!split) return undefined;
  const members = (lines: typeof split.head, row: RowSql) =>
    lines.map(({ name, key, line, when }) => {
      const value = lineValue(table, name, line, row);
      const condition = conditionSql(table, when, name, line, row);
      return condition === undefined ? alwaysMemberSql(key, value) : conditionalMemberSql(key, jsonTextOf(value), condition);
    });
  return { head: (row) => objectTextSql(members(split.head, row), false), rest: (row) => objectRestSql(members(split.rest, row)) };
}

/**
 * One line's api/v1 value as taskRowWriter writes it (REST v2 writes most of its fields as their
 * api/v1 values): its JSON text, and when it is null.
 */
export function taskValueSql(table: FieldTable, name: string, row: RowSql): ValueSql {
  const line = table[name];
  if (!line) throw new Error(`no task field ${name}`);
  checkLine(table, name, line, 'taskRowWriter');
  return lineValue(table, name, line, row);
}
