import { columnsOf, type ColumnType, type FieldColumn, type FieldTable } from '@doable/contracts-sync';
import { VISIBLE_PROJECTS } from '../membership/membership';
import { itemColumns } from './item.model';

/**
 * The INSERT statements of item_add, from a task field table (issue #46): the columns a new task
 * is written with are the lines item_add takes as arguments (`args.add`), plus who adds it and
 * the change version. A line with an argument is a column here with no other edit. Functions of
 * a table, as the SELECT list is: ItemRepository applies them to TASK_FIELDS once at load, and
 * a spec can apply them to a table with a line more.
 */

type Column = { readonly name: string } & FieldColumn;

/** The columns a new task's arguments fill, in the table's order. */
export function addedColumns(table: FieldTable): Column[] {
  return columnsOf(table).filter((column) => table[column.name]?.args?.add !== undefined);
}

/** A table's jsonb columns, whose values a change serialises (updateVersioned). */
export function jsonColumns(table: FieldTable): ReadonlySet<string> {
  return new Set(columnsOf(table).flatMap((column) => (column.type === 'jsonb' ? [column.name] : [])));
}

/** A value as its column's parameter takes it: jsonb travels as JSON text, null stays null. */
function parameterOf(type: ColumnType, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return type === 'jsonb' ? JSON.stringify(value) : value;
}

export interface ItemInsert {
  readonly sql: string;
  /** `$1` the user adding it, `$2` the version, then each added column's value. */
  values(item: Readonly<Record<string, unknown>>, version: string): unknown[];
}

function requireColumns(columns: readonly Column[], names: readonly string[]): void {
  const missing = names.filter((name) => !columns.some((column) => column.name === name));
  if (missing.length > 0) throw new Error(`a task table whose item_add takes no ${missing.join(', ')} cannot place a task`);
}

/**
 * One task, if its project is one the user can see (and not deleted). One statement: the
 * visibility check, the next child_order and the row itself, so an item_add costs one round
 * trip. It reads exactly what ProjectRepository.findVisible reads, in the same statement as the
 * write. The parameters are cast: INSERT ... SELECT does not take their types from the columns as
 * INSERT ... VALUES does. A child_order left null puts the task after its last sibling.
 */
export function itemInsert(table: FieldTable): ItemInsert {
  const columns = addedColumns(table);
  requireColumns(columns, ['project_id', 'parent_id', 'child_order']);
  const param = (name: string) => {
    const index = columns.findIndex((column) => column.name === name);
    return `$${index + 3}::${columns[index].type}`;
  };
  const expressions = columns.map((column) =>
    column.name === 'child_order'
      ? `COALESCE(${param('child_order')}, (SELECT COALESCE(max(child_order), 0) + 1 FROM sync.items
          WHERE project_id = project.id AND parent_id IS NOT DISTINCT FROM ${param('parent_id')} AND NOT is_deleted AND NOT in_history))`
      : param(column.name),
  );
  const sql = `INSERT INTO sync.items (user_id, added_by_uid, version, ${columns.map((column) => column.name).join(', ')})
       SELECT $1::bigint, $1::bigint, $2::bigint, ${expressions.join(', ')}
         FROM sync.projects project
        WHERE project.id = ${param('project_id')} AND project.id IN (${VISIBLE_PROJECTS}) AND NOT project.is_deleted
       RETURNING ${itemColumns(table)}`;
  return {
    sql,
    values: (item, version) => [item['user_id'], version, ...columns.map((column) => parameterOf(column.type, item[column.name]))],
  };
}

/**
 * Top-level tasks (no section, no parent, no child_order given) in one statement, as itemInsert
 * would one after another: each in order, if its project is visible and not deleted, each after
 * the last task of its project (the k-th of a project gets the project's max child_order + k:
 * the statement's subquery sees the table as it was before it). That max is read once per project
 * (`base`), not once per row: a lookup is an index scan backward of a few microseconds when the
 * planner knows the project's size, but a heap scan of the project's every task when statistics
 * under-count them (measured: 100 such scans over a project's 13,300 index entries, most of them dead
 * rows not yet vacuumed, took 214 ms of a 222 ms statement). Its rows carry `n`, the task's
 * position (from 1) in the list given. The ids are taken from the column's sequence in that
 * order first, which is how each row is found again. Text arrays travel as JSON: an array of
 * arrays cannot be unnested into rows of arrays.
 */
export function itemInsertAll(table: FieldTable): { readonly sql: string; values(items: ReadonlyArray<Readonly<Record<string, unknown>>>, version: string): unknown[] } {
  const columns = addedColumns(table);
  requireColumns(columns, ['project_id', 'child_order']);
  const given = columns.map((column, index) => `$${index + 3}::${column.type === 'text[]' ? 'jsonb' : column.type}[]`);
  const expressions = columns.map((column) => {
    const value = `input.${column.name}`;
    if (column.name === 'child_order') {
      return `base.child_order + row_number() OVER (PARTITION BY input.project_id ORDER BY input.n)`;
    }
    return column.type === 'text[]' ? `CASE WHEN ${value} IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(${value})) END` : value;
  });
  const names = columns.map((column) => column.name).join(', ');
  const sql = `WITH input AS (
         SELECT nextval(pg_get_serial_sequence('sync.items', 'id')) AS id, given.*
           FROM unnest(${given.join(', ')}) WITH ORDINALITY AS given(${names}, n)
       ),
       base AS (
         SELECT given.project_id, (SELECT COALESCE(max(child_order), 0) FROM sync.items
                  WHERE project_id = given.project_id AND parent_id IS NULL AND NOT is_deleted AND NOT in_history) AS child_order
           FROM (SELECT DISTINCT project_id FROM input) given
       ),
       written AS (
         INSERT INTO sync.items (id, user_id, added_by_uid, version, ${names})
         SELECT input.id, $1::bigint, $1::bigint, $2::bigint, ${expressions.join(', ')}
           FROM input JOIN base ON base.project_id = input.project_id JOIN sync.projects project ON project.id = input.project_id
          WHERE project.id IN (${VISIBLE_PROJECTS}) AND NOT project.is_deleted
          ORDER BY input.n
         RETURNING ${itemColumns(table)}
       )
       SELECT input.n::text AS n, written.* FROM written JOIN input ON input.id::text = written.id`;
  return {
    sql,
    values: (items, version) => [
      items[0]?.['user_id'],
      version,
      ...columns.map((column) => items.map((item) => (column.type === 'text[]' ? parameterOf('jsonb', item[column.name]) : parameterOf(column.type, item[column.name])))),
    ],
  };
}
