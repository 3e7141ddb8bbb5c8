import type { ObjectQueryFor, RenderedQuery, RenderedResource } from '@doable/contracts-sync';
import type { ObjectRenderer, RenderedAnswer, RenderSource, TaskListQuery } from '../shared/object-renderer';
import { restV2TaskListSql, taskListBody } from './rest-v2-task-list.sql';
import { REST_V2_WRITERS } from './rest-v2.writers';

/** PostgreSQL's `invalid_parameter_value`: what AT TIME ZONE raises for a zone it does not know. */
const INVALID_PARAMETER_VALUE = '22023';
/** PostgreSQL's `datetime_field_overflow`: a due date of the stored shape that no calendar has (2026-02-30T10:00:00Z), which Luxon reads as invalid. */
const DATETIME_FIELD_OVERFLOW = '22008';

/** A stored due PostgreSQL cannot read as Luxon does: its zone, or its date. */
function isUnreadableDue(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const failed: { driverError?: { code?: unknown }; code?: unknown; message?: unknown } = error;
  const code = failed.driverError?.code ?? failed.code;
  if (code === DATETIME_FIELD_OVERFLOW) return true;
  return code === INVALID_PARAMETER_VALUE && typeof failed.message === 'string' && failed.message.includes('time zone');
}

function isTaskList(query: RenderedQuery): query is TaskListQuery {
  return query.resource === 'tasks' || query.resource === 'tasks_by_filter';
}

/** The query's objects, written one by one in JavaScript: the object itself for a single read, else the array. */
async function writtenInJs<R extends RenderedResource>(query: ObjectQueryFor<R>, publicUrl: string, source: RenderSource): Promise<RenderedAnswer> {
  const { one, write } = REST_V2_WRITERS[query.resource];
  const { objects, hasMore } = await source.objects(query);
  const written = objects.map((object) => write(object, publicUrl));
  return { body: JSON.stringify(one ? written[0] : written), hasMore };
}

/**
 * REST v2 (client-constraints §2.8) as the sync service writes it, for the rest service to pass
 * on as text. A task list that is one unpaged SELECT has its tasks written by PostgreSQL in one statement
 * (rest-v2-task-list.sql.ts, bench S5: 1,000 tasks parsed, written and serialised in Node were
 * 11 of the 28 ms of CPU a request cost); every other answer, and a list whose due zones
 * PostgreSQL does not know, a due date no calendar has, or a value it cannot write as
 * JavaScript would, by the JavaScript
 * writers from the api/v1 objects (rest-v2.writers.ts). Both come from the task field table, and
 * the sync service's rest-v2-rendering.integration-spec.ts holds them to the same bytes.
 */
export const restV2Dialect: ObjectRenderer = {
  async render(query, render, source) {
    if (isTaskList(query)) {
      const selection = await source.taskSelection(query);
      if (selection) {
        const { sql, params } = restV2TaskListSql(selection, render.public_url);
        try {
          const body = taskListBody(await source.query<{ task: string | null }>(sql, params));
          // A task PostgreSQL could not write as JavaScript would (a number JSON.parse rounds): the list is JavaScript's.
          if (body !== undefined) return { body, hasMore: false };
        } catch (error) {
          // Luxon and PostgreSQL know different zone lists, and PostgreSQL refuses a date no calendar has: the JavaScript writer answers what Luxon makes of it.
          if (!isUnreadableDue(error)) throw error;
        }
      }
    }
    return writtenInJs(query, render.public_url, source);
  },
};
