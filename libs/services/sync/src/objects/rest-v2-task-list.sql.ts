import { wireTimestampSql } from '@doable/sync-domain';
import { STORED_DUE_DATE } from '@doable/sync-filter-language';

/** Active tasks chosen by a WHERE over `sync.items AS item`, `$1` the user id. */
export interface TaskSelection {
  readonly where: string;
  readonly params: readonly unknown[];
}

/**
 * The REST v2 due object (restV2Due in @doable/contracts-rest, case for case), from the stored
 * due. `fixed`: the due has a time and a zone, and its date has a stored shape, so PostgreSQL can
 * read it as an instant; Luxon reads a fixed date of any other shape as invalid, and restV2Due
 * then answers the stored text, which the ELSE branches do too. A zone PostgreSQL does not know
 * fails the statement (22023), and the caller writes the list in JavaScript instead
 * (task-list-renderer.ts): Luxon and PostgreSQL know different zone lists.
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
                 NOT shape.dated AND shape.timezone <> '' AND shape.date ~ '${STORED_DUE_DATE}' AS fixed,
                 CASE WHEN NOT shape.dated AND shape.timezone <> '' AND shape.date ~ '${STORED_DUE_DATE}' THEN left(shape.date, 19)::timestamp END AS utc
            FROM (SELECT item.due->>'date' AS date,
                         length(item.due->>'date') <= 10 AS dated,
                         coalesce(item.due->>'timezone', '') AS timezone,
                         item.due->>'string' AS string,
                         item.due->'is_recurring' AS is_recurring,
                         coalesce(item.due->>'lang', 'en') AS lang) AS shape) AS stored) AS rest_v2_due)`;

/**
 * One task in the REST v2 shape (restV2Task in @doable/contracts-rest): the same keys in the same
 * order. The column names are the JSON keys; `url` is the parameter holding the link's prefix.
 * The row aliases (rest_v2_task, rest_v2_due) are names no column of sync.items has: a whole-row
 * reference loses to a column of the same name, so `SELECT due FROM (...) AS due` answered
 * item.due as stored.
 */
function restV2TaskRow(url: string): string {
  return `SELECT item.id::text AS id,
      item.project_id::text AS project_id,
      item.section_id::text AS section_id,
      item.parent_id::text AS parent_id,
      item.content,
      item.description,
      item.checked AS is_completed,
      item.labels,
      item.child_order AS "order",
      item.priority,
      CASE WHEN item.due IS NULL THEN NULL ELSE ${REST_V2_DUE} END AS due,
      item.deadline,
      item.duration,
      ${url} || item.id::text AS url,
      (SELECT count(*)::int FROM sync.notes AS note WHERE note.item_id = item.id AND NOT note.is_deleted) AS comment_count,
      ${wireTimestampSql('item.added_at')} AS created_at,
      coalesce(item.added_by_uid, item.user_id)::text AS creator_id,
      item.responsible_uid::text AS assignee_id,
      item.assigned_by_uid::text AS assigner_id`;
}

/**
 * A task list as the JSON text of its REST v2 array, written by PostgreSQL in one statement
 * (issue #31, bench S5): the sync service reads one text value and passes it on, where writing
 * 1,000 tasks itself (rows parsed by the driver, api/v1 objects, REST v2 objects, a stringify)
 * was 11 of the 28 ms of CPU the product spent per request. Same order as every task list
 * (project, position, id). The JSON differs from JSON.stringify's only in white space: json_agg
 * puts a newline between tasks, and jsonb values (deadline, duration) have a space after `:`.
 */
export function restV2TaskListSql(selection: TaskSelection, publicUrl: string): { sql: string; params: unknown[] } {
  const params = [...selection.params, `${publicUrl}/app/task/`];
  const sql = `SELECT coalesce(json_agg(listed.task ORDER BY listed.project_id, listed.child_order, listed.id), '[]')::text AS body
    FROM (SELECT item.project_id, item.child_order, item.id, (SELECT rest_v2_task FROM (${restV2TaskRow(`$${params.length}`)}) AS rest_v2_task) AS task
            FROM sync.items AS item
           WHERE ${selection.where}) AS listed`;
  return { sql, params };
}
