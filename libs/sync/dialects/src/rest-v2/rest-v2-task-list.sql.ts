import { TASK_PAGE_PATH } from '@doable/contracts-rest';
import { type FieldLine, type FieldTable, type RestV2Render, TASK_FIELDS } from '@doable/contracts-sync';
import { conditionalMemberSql, jsonArrayText, memberSql, type ObjectMember, objectRestSql, objectTextSql, plainMemberSql, type RowSql } from '@doable/sync-domain';
import { jsonTextOf, readsComputed, type SplitObjectSql, splitMembers, taskValueSql } from '../shared/field-json.sql';
import { STORED_TASK_JSON, storedObjectJsonSql } from '../shared/stored-object-json';
import { type DueKey, scalarDueKeys, storedDueKeys, storedDueSql } from '../shared/stored-due.sql';

/** Active tasks chosen by a WHERE over `sync.items AS item`, `$1` the user id. */
export interface TaskSelection {
  readonly where: string;
  readonly params: readonly unknown[];
}

/** JavaScript's falsiness of a jsonb value, SQL NULL included. */
const falsy = (sql: string) => `(${sql} IS NULL OR ${sql} IN ('null'::jsonb, 'false'::jsonb, '0'::jsonb, '""'::jsonb))`;

/**
 * The REST v2 due object (restV2Due, case for case) as JSON text, from any stored due `due`
 * (writeDue passes its keys on as they are): `string` and `is_recurring` as stored (left out
 * where the due has none), `lang` or "en", then by the date's shape. `fixed`: the due has a time
 * and a zone, and its date has a stored shape (the column sync.items.due_date_text holds such a
 * date, else NULL), so PostgreSQL can read it as an instant; Luxon reads a fixed date of any
 * other shape as invalid, and restV2Due then answers the stored text, which the ELSE branch does
 * too. A zone PostgreSQL does not know fails the statement (22023), and the dialect writes the
 * list in JavaScript instead (rest-v2.dialect.ts): Luxon and PostgreSQL know different zone lists.
 * So does a key holding a number or an object, which no command stores (scalarDueKeys).
 */
function anyRestV2DueSql(due: string, alias: string): string {
  const dateText = `(${due} ->> 'date')`;
  const zoneless = falsy(`(${due} -> 'timezone')`);
  const utc = `left(${dateText}, 19)::timestamp`;
  const [string, recurring, lang, date, timezone] = ['string', 'is_recurring', 'lang', 'date', 'timezone'].map(scalarDueKeys(due));
  const optional = (name: string, key: DueKey) => (key.present === null ? memberSql(name, key.text) : conditionalMemberSql(name, key.text, key.present));
  // `due.lang ?? 'en'`: absent and null alike.
  const langText = `(CASE WHEN ${due} -> 'lang' IS NULL OR jsonb_typeof(${due} -> 'lang') = 'null' THEN '"en"' ELSE ${lang.text} END)`;
  const object = objectTextSql([
    optional('string', string),
    optional('is_recurring', recurring),
    memberSql('lang', langText),
    // A date of ten characters or fewer is a day: no time, no zone.
    `CASE WHEN length(${dateText}) <= 10 THEN ',"date":' || ${date.text} || ',"datetime":null,"timezone":null'
          WHEN ${alias}.due_date_text IS NOT NULL AND NOT ${zoneless}
          THEN ',"date":"' || to_char(${utc} AT TIME ZONE 'UTC' AT TIME ZONE (${due} ->> 'timezone'), 'YYYY-MM-DD') || '","datetime":"' || to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '","timezone":' || ${timezone.text}
          ELSE ',"date":' || to_json(left(${dateText}, 10))::text || ',"datetime":' || ${date.text} || ',"timezone":' || CASE WHEN ${zoneless} THEN 'null' ELSE ${timezone.text} END END`,
  ]);
  // JavaScript counts and slices the date in UTF-16 units, PostgreSQL in characters: a date with any
  // character beyond ASCII is left to JavaScript (NULL: the task is not written here).
  return `(CASE WHEN octet_length(${dateText}) = length(${dateText}) THEN ${object} END)`;
}

/**
 * The same object for the due every command stores (storedDueSql's types) whose date has a stored
 * shape, which sync.items.due_date_text then holds: a string, of ASCII characters, ten for a day,
 * nineteen or twenty for a time. So the date is neither looked up, measured nor quoted again, the
 * zone is truthy where it is a string that is not empty, and the object is written by format().
 * That is nearly every due; the general form above cost PostgreSQL a quarter of the S5 list
 * (issue #48). The three date cases are restV2Due's, as above.
 */
function storedRestV2DueSql(due: string, alias: string): { when: string; text: string } {
  const day = `${alias}.due_date_text`;
  const utc = `left(${day}, 19)::timestamp`;
  const [string, recurring, lang, timezone] = ['string', 'is_recurring', 'lang', 'timezone'].map(storedDueKeys(due));
  const text = objectTextSql([
    plainMemberSql('string', string.text),
    plainMemberSql('is_recurring', recurring.text),
    plainMemberSql('lang', lang.text),
    `CASE WHEN length(${day}) = 10 THEN ',"date":"' || ${day} || '","datetime":null,"timezone":null'
          WHEN (${due} ->> 'timezone') <> ''
          THEN ',"date":"' || to_char(${utc} AT TIME ZONE 'UTC' AT TIME ZONE (${due} ->> 'timezone'), 'YYYY-MM-DD') || '","datetime":"' || to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '","timezone":' || ${timezone.text}
          ELSE ',"date":"' || left(${day}, 10) || '","datetime":"' || ${day} || '","timezone":null' END`,
  ]);
  return { when: `${day} IS NOT NULL AND ${storedDueSql(due, ['date'])}`, text };
}

/** The REST v2 due of the task at `alias`, or null; NULL where PostgreSQL cannot write it as restV2Due would. */
function restV2DueSql(due: string, alias: string): string {
  const stored = storedRestV2DueSql(due, alias);
  return `(CASE WHEN ${stored.when} THEN ${stored.text} WHEN ${falsy(due)} THEN 'null' ELSE ${anyRestV2DueSql(due, alias)} END)`;
}

/**
 * The task fields REST v2 writes that no column holds, in SQL: the live comments of the task,
 * as the api/v1 task's `note_count` counts them (`comments`, in restV2TaskListSql).
 */
const REST_V2_ROW: RowSql = { alias: 'item', computed: { note_count: { sql: 'comments.n', type: 'integer' } } };

/** A REST v2 value in SQL: its JSON text, and whether that may be NULL (not written). */
interface RestV2ValueSql {
  readonly text: string;
  readonly mayBeUnwritten: boolean;
}

const always = (text: string): RestV2ValueSql => ({ text, mayBeUnwritten: false });

/** Each way the task table says REST v2 writes a field, in SQL (rest-v2-task.writer.ts's REST_V2_RENDERS, case for case). */
const REST_V2_SQL: { readonly [R in RestV2Render]: (table: FieldTable, name: string, line: FieldLine, row: RowSql, url: string) => RestV2ValueSql } = {
  // The api/v1 value under the REST v2 key; a line api/v1 does not write fails here, as in the JavaScript writer.
  value: (table, name, line, row) => {
    if (line.apiV1 === undefined) throw new Error(`REST v2 writes ${name} as its api/v1 value, and api/v1 has none`);
    const value = taskValueSql(table, name, row);
    return { text: jsonTextOf(value), mayBeUnwritten: value.mayBeUnwritten === true };
  },
  due: (_table, name, line, row) => {
    if (line.column?.type !== 'jsonb') throw new Error(`REST v2 writes ${name} as a due, and it is no jsonb column`);
    return { text: restV2DueSql(`${row.alias}.${name}`, row.alias), mayBeUnwritten: true };
  },
  url: (_table, _name, _line, row, url) => always(`to_json(${url} || ${row.alias}.id::text)::text`),
  // `added_by_uid ?? user_id`, both as api/v1 writes them.
  creator: (table, _name, _line, row) => {
    const added = taskValueSql(table, 'added_by_uid', row);
    const owner = taskValueSql(table, 'user_id', row);
    const text = added.isNull === null ? added.text : `(CASE WHEN ${added.isNull} THEN ${jsonTextOf(owner)} ELSE ${added.text} END)`;
    return { text, mayBeUnwritten: added.mayBeUnwritten === true || owner.mayBeUnwritten === true };
  },
};

/**
 * The REST v2 members of a task, in the table's order, each marked where its value is the read's
 * (the comment count, the link) and written when asked (the stored head has no comment count to name).
 */
function restV2Members(table: FieldTable, url: string): Array<{ member: (row: RowSql) => ObjectMember; computed: boolean }> {
  return Object.entries(table).flatMap(([name, line]) => {
    const restV2 = line.restV2;
    if (!restV2) return [];
    const member = (row: RowSql): ObjectMember => {
      const value = REST_V2_SQL[restV2.render](table, name, line, row, url);
      return value.mayBeUnwritten ? memberSql(restV2.key, value.text) : plainMemberSql(restV2.key, value.text);
    };
    return [{ member, computed: restV2.render === 'url' || (restV2.render === 'value' && readsComputed(table, name, line)) }];
  });
}

/**
 * One task in the REST v2 shape (restV2TaskWriter's), as JSON text: the same keys in the same
 * order, both from the task field table; `url` is the parameter holding the link's prefix.
 * Refuses, when it is made, a line written in a way its SQL would not match.
 */
export function restV2TaskJsonSql(table: FieldTable, row: RowSql, url: string): string {
  return objectTextSql(restV2Members(table, url).map(({ member }) => member(row)));
}

/**
 * restV2TaskJsonSql cut where the members the read computes begin (SplitObjectSql): the head,
 * which PostgreSQL keeps with the task (sync.items.rest_v2_json), and the rest (the comment
 * count and the link, whose prefix is the deployment's), which the list appends. `url` is only
 * read by the rest. Undefined where splitMembers cannot cut it.
 */
export function splitRestV2TaskJsonSql(table: FieldTable, url: string): SplitObjectSql | undefined {
  const split = splitMembers(restV2Members(table, url), ({ computed }) => computed);
  if (!split) return undefined;
  return {
    head: (row) => objectTextSql(split.head.map(({ member }) => member(row)), false),
    rest: (row) => objectRestSql(split.rest.map(({ member }) => member(row))),
  };
}

/**
 * The task field table's stored form of a listed task by the link prefix's parameter (a few: it
 * follows the selection's parameters), made once: its stamp is a digest of the head's SQL.
 */
const STORED_TASK_SQL = new Map<string, string | undefined>();
function storedTaskSql(url: string): string | undefined {
  if (!STORED_TASK_SQL.has(url)) {
    const split = splitRestV2TaskJsonSql(TASK_FIELDS, url);
    STORED_TASK_SQL.set(url, split && storedObjectJsonSql(STORED_TASK_JSON, STORED_TASK_JSON.columns.restV2, split)(REST_V2_ROW));
  }
  return STORED_TASK_SQL.get(url);
}

/**
 * A task list's tasks, each as the JSON text of its REST v2 object written by PostgreSQL (issue
 * #31, bench S5; issue #48: the text byte for byte JSON.stringify's), one row each (`task`) in
 * the order of every task list (project, position, id): taskListBody joins them into the
 * array's text, which the sync service passes on, where writing 1,000 tasks itself (rows parsed
 * by the driver, api/v1 objects, REST v2 objects, a stringify) was 11 of the 28 ms of CPU the
 * product spent per request. Its keys from the task field table (`table` is it but in a spec
 * that derives the list of a table with a line more). A task PostgreSQL could not write as
 * JavaScript would is NULL (the list is then written in JavaScript).
 *
 * The chosen tasks' comments are counted in one index scan of all their ids, not by a sub-select
 * per task: the planner prices such a sub-select at an index scan per task it expects (11,334 for
 * the 1,001 of bench S5), and beside other accounts' rows that price passed jit_above_cost, so
 * every request compiled its expressions first (issue #48: 37 of the 38 ms `today | overdue` cost
 * beside a 50,000-task account). Counting every comment of the user's projects instead costs a
 * short list what the user's whole history does (10 ms more for 11 tasks of that account).
 */
export function restV2TaskListSql(selection: TaskSelection, publicUrl: string, table: FieldTable = TASK_FIELDS): { sql: string; params: unknown[] } {
  const params = [...selection.params, `${publicUrl}${TASK_PAGE_PATH}`];
  const url = `$${params.length}::text`;
  // The task field table's list reads each task's stored head (sync.items.rest_v2_json, written
  // with the task) and appends the comment count and the link; another table (a spec's), or one
  // whose text cannot be cut so, is written whole.
  const storedTask = table === TASK_FIELDS ? storedTaskSql(url) : undefined;
  const stored = storedTask !== undefined;
  const task = storedTask ?? restV2TaskJsonSql(table, REST_V2_ROW, url);
  // The materialized tasks carry only what the stored form reads (not the api/v1 and v9 texts beside it).
  const columns = stored ? `item.id, item.project_id, item.child_order, item.${STORED_TASK_JSON.columns.restV2}` : 'item.*';
  const sql = `WITH chosen AS MATERIALIZED (SELECT ${columns} FROM sync.items AS item WHERE ${selection.where}),
         comments AS (SELECT note.item_id, count(*)::int AS n FROM sync.notes AS note
                       WHERE note.item_id = ANY (ARRAY(SELECT chosen.id FROM chosen)) AND NOT note.is_deleted GROUP BY note.item_id)
    SELECT ${task} AS task
      FROM chosen AS item LEFT JOIN comments ON comments.item_id = item.id
     ORDER BY item.project_id, item.child_order, item.id`;
  return { sql, params };
}

/**
 * The list's JSON as UTF-8 bytes from restV2TaskListSql's rows (what the sync service answers
 * with; rest and the gateway pass bytes on); undefined when a task could not be written there.
 */
export function taskListBody(rows: ReadonlyArray<{ readonly task: string | null }>): Buffer | undefined {
  return jsonArrayText(rows.map((row) => row.task))?.toBytes();
}
