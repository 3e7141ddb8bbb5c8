import { type ApiTask, type FieldTable, type RestV2Render, TASK_FIELDS } from '@doable/contracts-sync';
import { restV2Due } from './rest-v2-due';

/** A task's page in the web app: the `url` of REST v1 and v2 tasks. */
export function restTaskUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/app/task/${id}`;
}

/**
 * The REST v2 task, from the api/v1 task the sync service writes. It lives here, in a contract
 * library, rather than in the rest service's dialect because it is written in two places: the
 * rest service writes single tasks with it, and the sync service writes whole task lists with
 * it (`ObjectsRequest.render`), so a long list is rendered once, next to its rows, and is not
 * sent to rest as api/v1 objects to be parsed and written again. One function, so both agree to
 * the byte. Most lists are now written by PostgreSQL instead (the sync service's
 * rest-v2-task-list.sql.ts, held to this function by task-list-renderer.integration-spec.ts).
 * Both are derived from the task field table (TASK_FIELDS): a field's line says its REST v2 key
 * and how it is written, so a new field appears in both.
 */
export function restV2Task(task: ApiTask, publicUrl: string): Record<string, unknown> {
  return writeRestV2Task(task, publicUrl);
}

type WriteTask = (task: ApiTask, publicUrl: string) => unknown;

/** Each way the task table says REST v2 writes a field, from the api/v1 task (exhaustive). */
const REST_V2_RENDERS: { readonly [R in RestV2Render]: (apiKey: keyof ApiTask | undefined, field: string) => WriteTask } = {
  value: (apiKey, field) => {
    // The table's lines say so (task-fields.spec.ts); a line that did not would fail at load, not per task.
    if (apiKey === undefined) throw new Error(`REST v2 writes ${field} as its api/v1 value, and api/v1 has none`);
    return (task) => task[apiKey];
  },
  due: () => (task) => (task.due ? restV2Due(task.due) : null),
  url: () => (task, publicUrl) => restTaskUrl(publicUrl, task.id),
  creator: () => (task) => task.added_by_uid ?? task.user_id,
};

/**
 * The REST v2 task writer of a task field table: its keys in the table's order, each written as
 * the line says. A function of the table, so a spec can derive the writer of a table with a line more.
 */
export function restV2TaskWriter(table: FieldTable): (task: ApiTask, publicUrl: string) => Record<string, unknown> {
  const fields = Object.entries(table).flatMap(([name, line]) =>
    // An api/v1 key of the task table is a key of ApiTask (ApiTaskFollowsTheTable); of a spec's
    // wider table, a key its api/v1 tasks have beyond ApiTask's.
    line.restV2 ? [{ key: line.restV2.key, write: REST_V2_RENDERS[line.restV2.render](line.apiV1 as keyof ApiTask | undefined, name) }] : [],
  );
  return (task, publicUrl) => {
    const written: Record<string, unknown> = {};
    for (const field of fields) written[field.key] = field.write(task, publicUrl);
    return written;
  };
}

const writeRestV2Task = restV2TaskWriter(TASK_FIELDS);
