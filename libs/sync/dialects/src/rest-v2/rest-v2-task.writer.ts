import { taskPageUrl } from '@doable/contracts-rest';
import { type ApiTask, type FieldTable, type RestV2Render, TASK_FIELDS } from '@doable/contracts-sync';
import { restV2Due } from './rest-v2-due';

/** A REST v2 task writer: the api/v1 task the sync service reads, and where the app's links point. */
export type RestV2TaskWriter = (task: ApiTask, publicUrl: string) => Record<string, unknown>;

type WriteField = (task: ApiTask, publicUrl: string) => unknown;

/** Each way the task table says REST v2 writes a field, from the api/v1 task (exhaustive). */
const REST_V2_RENDERS: { readonly [R in RestV2Render]: (apiKey: keyof ApiTask | undefined, field: string) => WriteField } = {
  value: (apiKey, field) => {
    // The table's lines say so (task-fields.spec.ts); a line that did not would fail at load, not per task.
    if (apiKey === undefined) throw new Error(`REST v2 writes ${field} as its api/v1 value, and api/v1 has none`);
    return (task) => task[apiKey];
  },
  due: () => (task) => (task.due ? restV2Due(task.due) : null),
  url: () => (task, publicUrl) => taskPageUrl(publicUrl, task.id),
  creator: () => (task) => task.added_by_uid ?? task.user_id,
};

/**
 * The REST v2 task writer of a task field table: its keys in the table's order, each written as
 * the line says. The lists PostgreSQL writes (rest-v2-task-list.sql.ts) come from the same table,
 * so a new field appears in both; a function of the table, so a spec can derive the writer of a
 * table with a line more.
 */
export function restV2TaskWriter(table: FieldTable): RestV2TaskWriter {
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

/** The REST v2 task, from the api/v1 task: what single tasks and the lists PostgreSQL does not write are answered with. */
export const restV2Task: RestV2TaskWriter = restV2TaskWriter(TASK_FIELDS);
