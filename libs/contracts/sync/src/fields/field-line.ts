import type { z } from 'zod';

/**
 * One line of a resource's field table: everything the code says about one field, in one place
 * (issue #46). The consumers that must agree (columns, argument schemas, the api/v1 and v9
 * writers, the REST v2 writer and its SQL twin, OpenAPI) are derived from the lines; the ones a
 * legacy dialect writes by hand (v8, v7, REST v1) name their keys here and a spec holds those
 * writers, the migrations and the golden answers to the table.
 */

/** The PostgreSQL type of a stored field, as its migration declares it. */
export type ColumnType = 'bigint' | 'text' | 'smallint' | 'integer' | 'boolean' | 'jsonb' | 'text[]' | 'bigint[]' | 'timestamptz';

export interface FieldColumn {
  readonly type: ColumnType;
  readonly nullable: boolean;
}

/**
 * How the api/v1 and v9 writers write a field from its stored row: `value` as read (ids come
 * as text, ITEM_COLUMNS casts them), `timestamp` in wire text, `due` as the due object, `count`
 * a number a read may have counted (0 when it did not), `null` a key written as null always.
 */
export type RowRender = 'value' | 'timestamp' | 'due' | 'count' | 'null';

/**
 * How REST v2 writes a field from the api/v1 object (and, in the sync service, from the row in
 * SQL): `value` the api/v1 value under a new name, `due` the REST v2 due object, `url` the
 * task's page, `creator` who added it (its owner when nobody is recorded).
 */
export type RestV2Render = 'value' | 'due' | 'url' | 'creator';

export interface RestV2Field {
  readonly key: string;
  readonly render: RestV2Render;
  /** Its OpenAPI shape; the line's api/v1 schema when absent. */
  readonly schema?: z.ZodType;
}

/**
 * A key a legacy dialect's writer writes for the field. A key ending in `?` is left out when
 * there is nothing to say (REST v1 writes no nulls).
 */
export type LegacyKey = string;

/**
 * When api/v1 and v9 write a line's key (always, when a line has none): `true` only on a true
 * value (the inbox's `inbox_project`); `{ set }` only when the named field of the row is set (a
 * workspace project's keys, a task comment's `item_id`); `{ unset }` only when it is null (a
 * project comment's `project_id`); `{ field, in }` only when the named field holds one of the
 * values (a reminder's keys of its type).
 */
export type WrittenWhen = 'true' | { readonly set: string } | { readonly unset: string } | { readonly field: string; readonly in: readonly string[] };

/** The argument a field is in a command, its schema already optional or not as the command takes it. */
export interface FieldArgs {
  readonly add?: z.ZodType;
  readonly update?: z.ZodType;
}

export interface FieldLine {
  /** The stored column (named as the line), or null for a value a read computes or a dialect makes up. */
  readonly column: FieldColumn | null;
  readonly args?: FieldArgs;
  /** Its key in api/v1 (sync and REST), absent when api/v1 does not write it. */
  readonly apiV1?: string;
  /** Its key in sync v9. */
  readonly v9?: string;
  /** How api/v1 and v9 write it; `value` when absent. */
  readonly render?: RowRender;
  /** Its api/v1 shape (OpenAPI, and what the api/v1 and v9 writers produce). */
  readonly schema?: z.ZodType;
  readonly restV2?: RestV2Field;
  /** The keys the legacy writers write for it (writeV8Item, the old-sync writers, the REST v1 dialect). */
  readonly v8?: readonly LegacyKey[];
  readonly v7?: readonly LegacyKey[];
  readonly restV1?: readonly LegacyKey[];
  /** Kept by a backup's account JSON and read back by its restore. */
  readonly backup: boolean;
  /** Carried by a project template (its JSON tree and its CSV). */
  readonly template: boolean;
  /** Its columns in the Todoist CSV (templates and a backup's per-project CSVs); none when it has none. */
  readonly csv: readonly string[];
  /*
   * How api/v1 and v9 write the line beyond its render, for the resources whose objects are not
   * one key per stored field (projects, comments, labels, ...); every one optional, so a line
   * without them is written as its render says (fieldRowWriter in the sync dialects).
   */
  /** The row field the line is read from, when not its own name (a project's `can_assign_tasks` is its `shared`). */
  readonly from?: string;
  /** The value written for a key no field backs (`is_frozen: false`, `default_order: 0`), the row unread. */
  readonly fixed?: string | number | boolean;
  /** When the key is written; always when absent. */
  readonly when?: WrittenWhen;
  /** When v9 writes the key, where not as api/v1 does (a relative reminder's `due: null`). */
  readonly v9When?: WrittenWhen;
  /** The value written where the row holds null (a location reminder's `radius: 0`: the SDKs require one). */
  readonly absent?: string | number;
  /** The value written inside an object under the key, `{ [wrap]: value }` (a project's `access: { visibility }`). */
  readonly wrap?: string;
  /** An empty object or list is written as null (a comment's `reactions`). */
  readonly emptyAsNull?: true;
  /** api/v1 writes the key in sync only: its REST surface (and so its OpenAPI object) leaves it out (a label's `item_order`). */
  readonly syncOnly?: true;
  /** A column a service keeps for itself (the reminder service's `fired_for`): no object read selects it, no dialect writes it. */
  readonly internal?: true;
}

export type FieldTable = Readonly<Record<string, FieldLine>>;

/** The names a table's lines give a dialect's keys, in the table's order. */
export type DialectKey<T extends FieldTable, D extends 'apiV1' | 'v9'> = { [F in keyof T]: T[F] extends { readonly [K in D]: infer N extends string } ? N : never }[keyof T];

/** A value as a client receives it: read-only all the way down (clients read wire objects; they do not change them). */
export type WireValue<V> = V extends ReadonlyArray<infer E> ? ReadonlyArray<WireValue<E>> : V extends object ? { readonly [K in keyof V]: WireValue<V[K]> } : V;

/**
 * A dialect's object as a table's lines make it, key by key: each line with a key in the dialect
 * and a shape (`schema`), typed by what its shape parses to. Types only (the web app's wire types
 * are these): a new line is a new key of the object with no other edit.
 */
export type WireObject<T extends FieldTable, D extends 'apiV1' | 'v9'> = {
  readonly [F in keyof T as T[F] extends { readonly [K in D]: infer N extends string } ? (T[F] extends { readonly schema: z.ZodType } ? N : never) : never]: T[F] extends { readonly schema: infer S extends z.ZodType }
    ? WireValue<z.output<S>>
    : never;
};

/** The argument schemas a command of the given kind takes from the table, typed field by field. */
export type ArgShape<T extends FieldTable, M extends keyof FieldArgs> = {
  -readonly [F in keyof T as T[F] extends { readonly args: { readonly [K in M]: z.ZodType } } ? F : never]: T[F] extends { readonly args: { readonly [K in M]: infer S } } ? S : never;
};

/** The argument schemas of the table's fields a command of kind `mode` takes, for its z.object. */
export function argShape<T extends FieldTable, M extends keyof FieldArgs>(table: T, mode: M): ArgShape<T, M> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, line] of Object.entries(table)) {
    const schema = line.args?.[mode];
    if (schema) shape[name] = schema;
  }
  return shape as ArgShape<T, M>;
}

/**
 * The values of a command's arguments that are fields of the table (the lines with an argument
 * schema for `mode`), by field, from arguments already parsed by argShape's schemas: what a
 * command writes of a field it does nothing special with, so a new line reaches the row with no
 * edit in the command. An argument left out is null in a new row (the column's nothing; a line
 * whose column is NOT NULL gives its schema a default) and undefined in a change (left as is).
 */
export type ArgValues<T extends FieldTable, M extends keyof FieldArgs> = {
  -readonly [F in keyof ArgShape<T, M>]: ArgShape<T, M>[F] extends z.ZodType<infer V> ? (M extends 'add' ? Exclude<V, undefined> | (undefined extends V ? null : never) : V) : never;
};

export function argValues<T extends FieldTable, M extends keyof FieldArgs>(table: T, mode: M, args: Readonly<Record<string, unknown>>): ArgValues<T, M> {
  const values: Record<string, unknown> = {};
  for (const name of argNamesOf(table, mode)) values[name] = mode === 'add' ? (args[name] ?? null) : args[name];
  return values as ArgValues<T, M>;
}

/** Each table's argument names per mode, found once: argValues runs per command (100 times in a request of 100 adds). */
const ARG_NAMES = new WeakMap<FieldTable, Partial<Record<keyof FieldArgs, readonly string[]>>>();

function argNamesOf(table: FieldTable, mode: keyof FieldArgs): readonly string[] {
  let byMode = ARG_NAMES.get(table);
  if (!byMode) ARG_NAMES.set(table, (byMode = {}));
  return (byMode[mode] ??= Object.entries(table).flatMap(([name, line]) => (line.args?.[mode] ? [name] : [])));
}

/** What the pg driver reads from a column of each type (ids cast to text by the SELECT lists: the domain's ids are strings). */
export interface ColumnValues {
  bigint: string;
  text: string;
  smallint: number;
  integer: number;
  boolean: boolean;
  jsonb: unknown;
  'text[]': string[];
  'bigint[]': string[];
  timestamptz: Date;
}

/**
 * A table's stored row, field by field from its columns' types and nullability. A jsonb column
 * reads as unknown: its shape is the reader's to say (the task's Item names its due, deadline
 * and duration).
 */
export type StoredRow<T extends FieldTable> = {
  -readonly [F in keyof T as T[F]['column'] extends FieldColumn ? F : never]: T[F]['column'] extends { readonly type: infer C extends ColumnType; readonly nullable: infer N }
    ? ColumnValues[C] | (N extends true ? null : never)
    : never;
};

/** The stored columns of a table, in its order, with their types. */
export function columnsOf(table: FieldTable): Array<{ readonly name: string } & FieldColumn> {
  return Object.entries(table).flatMap(([name, line]) => (line.column ? [{ name, ...line.column }] : []));
}

/**
 * A dialect's object as OpenAPI describes it, key by key from the table, in the table's order:
 * for api/v1 each line's schema, for REST v2 its REST v2 schema where it has one.
 */
/** The OpenAPI object shape a table's lines make in api/v1 or REST v2, typed line by line (a REST v2 line may carry its own schema). */
export type OpenApiShape<T extends FieldTable, D extends 'apiV1' | 'restV2'> = D extends 'apiV1'
  ? { -readonly [F in keyof T as T[F] extends { readonly apiV1: infer K extends string; readonly schema: z.ZodType } ? K : never]: T[F] extends { readonly schema: infer S } ? S : never }
  : {
      -readonly [F in keyof T as T[F] extends { readonly restV2: { readonly key: infer K extends string } } ? K : never]: T[F] extends { readonly restV2: { readonly schema: infer S extends z.ZodType } }
        ? S
        : T[F] extends { readonly schema: infer S }
          ? S
          : never;
    };

export function openApiShape<T extends FieldTable, D extends 'apiV1' | 'restV2'>(table: T, dialect: D): OpenApiShape<T, D> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, line] of Object.entries(table)) {
    const key = dialect === 'apiV1' ? line.apiV1 : line.restV2?.key;
    if (key === undefined) continue;
    const schema = (dialect === 'restV2' ? line.restV2?.schema : undefined) ?? line.schema;
    // task-fields.spec.ts says every written field has a shape; this names the one that has not.
    if (!schema) throw new Error(`field ${name} has no OpenAPI shape for ${dialect}`);
    shape[key] = schema;
  }
  return shape as OpenApiShape<T, D>;
}

/** A table without the lines api/v1 REST leaves out (`syncOnly`), typed line by line. */
export type RestApiV1Lines<T extends FieldTable> = { [F in keyof T as T[F] extends { readonly syncOnly: true } ? never : F]: T[F] };

/** The lines of a table the api/v1 REST surface writes: its OpenAPI object is openApiShape of them. */
export function restApiV1Lines<T extends FieldTable>(table: T): RestApiV1Lines<T> {
  return Object.fromEntries(Object.entries(table).filter(([, line]) => !line.syncOnly)) as RestApiV1Lines<T>;
}
