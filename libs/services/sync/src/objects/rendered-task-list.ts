import { restV2Task } from '@doable/contracts-rest';
import type { ApiTask, ObjectsRender, ObjectsRequest } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { TaskListQuery } from './query-result';

/** A task list to answer as text in a dialect. */
export interface TaskListRendering {
  readonly render: ObjectsRender;
  readonly query: TaskListQuery;
}

/**
 * What a request asks to be rendered (undefined: nothing, its objects are answered). Refuses,
 * before any command runs, a dialect asked of anything but a task list (the caller's mistake).
 */
export function checkRenderable(request: ObjectsRequest): TaskListRendering | undefined {
  const { render, query } = request;
  if (render === undefined) return undefined;
  if (query?.resource === 'tasks' || query?.resource === 'tasks_by_filter') return { render, query };
  throw new DomainError('INTERNAL', `objects: only task lists are rendered, not ${query?.resource ?? 'an empty query'}`);
}

/**
 * A task list as the JSON text of its REST v2 array, for the lists PostgreSQL does not write
 * (task-list-renderer.ts), written from the api/v1 tasks by the REST
 * contracts' own writer (so it is the text rest would have made from them). Written here, next to
 * the rows: sending 1,000 api/v1 tasks to rest cost it a parse of half a megabyte, then a write
 * and a serialisation of its own (bench S5).
 */
export function renderTaskList(render: ObjectsRender, tasks: readonly ApiTask[]): string {
  switch (render.dialect) {
    case 'rest-v2':
      return JSON.stringify(tasks.map((task) => restV2Task(task, render.public_url)));
  }
}
