import { TASK_PAGE_PATH } from '@doable/contracts-rest';
import { type FieldColumn, type FieldLine, type FieldTable, type RestV2Render, TASK_FIELDS } from '@doable/contracts-sync';
import { wireTimestampSql } from '@doable/sync-domain';

/** Active tasks chosen by a WHERE over `sync.items AS item`, `$1` the user id. */
export interface TaskSelection {
  readonly where: string;
  readonly params: readonly unknown[];
}

/**
 * The REST v2 due object (restV2Due, case for case), from the stored
 * due. `fixed`: the due has a time and a zone, and its date has a stored shape (the column
 * sync.items.due_date_text holds such a date, else NULL), so PostgreSQL can read it as an
 * instant; Luxon reads a fixed date of any other shape as invalid, and restV2Due
 * then answers the stored text, which the ELSE branches do too. A zone PostgreSQL does not know
 * fails the statement (22023), and the dialect writes the list in JavaScript instead
 * (rest-v2.dialect.ts): Luxon and PostgreSQL know different zone lists.
 */
const REST_V2_DUE = `(SELECT rest_v2_due FROM (SELECT
      stored.string,
      stored.is_recurring,
      stored.lang,
      CASE WHEN stored.dated THEN stored.date
           WHEN stored.fixed THEN to_char(stored.utc AT TIME ZONE 'UTC' AT TIME ZONE stored.timezone, 'YYYY-MM-DD')
           ELSE left(stored.date, 10) END AS date,
      CASE WHEN stored.dated THEN NULL
           WHEN stored.fixed THEN to_char(stored.utc, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
           ELSE stored.date END AS datetime,
      CASE WHEN stored.dated OR stored.timezone = '' THEN NULL ELSE stored.timezone END AS timezone
    FROM (SELECT shape.*,
                 NOT shape.dated AND shape.timezone <> '' AND shape.stored_shape AS fixed,
                 CASE WHEN NOT shape.dated AND shape.timezone <> '' AND shape.stored_shape THEN left(shape.date, 19)::timestamp END AS utc
            FROM (SELECT item.due->>'date' AS date,
                         item.due_date_text IS NOT NULL AS stored_shape,
                         length(item.due->>'date') <= 10 AS dated,
                         coalesce(item.due->>'timezone', '') AS timezone,
                         item.due->>'string' AS string,
                         item.due->'is_recurring' AS is_recurring,
                         coalesce(item.due->>'lang', 'en') AS lang) AS shape) AS stored) AS rest_v2_due)`;

/**
 * The task fields REST v2 writes that no column holds, in SQL. A field with a column is read
 * from it; one without (a value a read computes) is written here, and a task-table line with
 * neither fails the module's load.
 */
const COMPUTED: Readonly<Record<string, string>> = {
  note_count: '(SELECT count(*)::int FROM sync.notes AS note WHERE note.item_id = item.id AND NOT note.is_deleted)',
};

/** A stored column as its api/v1 value: ids as text, timestamps in wire text. */
function columnSql(name: string, column: FieldColumn): string {
  if (column.type === 'bigint') return `item.${name}::text`;
  if (column.type === 'timestamptz') return wireTimestampSql(`item.${name}`);
  return `item.${name}`;
}

/** Each way the task table says REST v2 writes a field, in SQL (rest-v2-task.writer.ts's REST_V2_RENDERS, case for case). */
const REST_V2_SQL: { readonly [R in RestV2Render]: (name: string, line: FieldLine, url: string) => string } = {
  value: (name, line) => {
    const sql = line.column ? columnSql(name, line.column) : COMPUTED[name];
    if (sql === undefined) throw new Error(`REST v2 writes task field ${name}, which has no column and no SQL here`);
    return sql;
  },
  due: (name) => `CASE WHEN item.${name} IS NULL THEN NULL ELSE ${REST_V2_DUE} END`,
  url: (_name, _line, url) => `${url} || item.id::text`,
  creator: () => 'coalesce(item.added_by_uid, item.user_id)::text',
};

/**
 * One task in the REST v2 shape (restV2Task): the same keys in the same
 * order, both from the task field table. The column names are the JSON keys; `url` is the
 * parameter holding the link's prefix. The row aliases (rest_v2_task, rest_v2_due) are names no
 * column of sync.items has: a whole-row reference loses to a column of the same name, so
 * `SELECT due FROM (...) AS due` answered item.due as stored.
 */
function restV2TaskRow(url: string, table: FieldTable): string {
  const columns = Object.entries(table).flatMap(([name, line]) => (line.restV2 ? [`${REST_V2_SQL[line.restV2.render](name, line, url)} AS "${line.restV2.key}"`] : []));
  return `SELECT ${columns.join(',\n      ')}`;
}

/**
 * A task list as the JSON text of its REST v2 array, written by PostgreSQL in one statement
 * (issue #31, bench S5): the sync service reads one text value and passes it on, where writing
 * 1,000 tasks itself (rows parsed by the driver, api/v1 objects, REST v2 objects, a stringify)
 * was 11 of the 28 ms of CPU the product spent per request. Same order as every task list
 * (project, position, id); its keys from the task field table (`table` is it but in a spec that
 * derives the list of a table with a line more). The JSON differs from JSON.stringify's only in white space: json_agg
 * puts a newline between tasks, and jsonb values (deadline, duration) have a space after `:`.
 */
export function restV2TaskListSql(selection: TaskSelection, publicUrl: string, table: FieldTable = TASK_FIELDS): { sql: string; params: unknown[] } {
  const params = [...selection.params, `${publicUrl}${TASK_PAGE_PATH}`];
  const sql = `SELECT coalesce(json_agg(listed.task ORDER BY listed.project_id, listed.child_order, listed.id), '[]')::text AS body
    FROM (SELECT item.project_id, item.child_order, item.id, (SELECT rest_v2_task FROM (${restV2TaskRow(`$${params.length}`, table)}) AS rest_v2_task) AS task
            FROM sync.items AS item
           WHERE ${selection.where}) AS listed`;
  return { sql, params };
}
