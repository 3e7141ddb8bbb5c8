import type { ObjectOf, ObjectQueryFor, ObjectsRender, RenderedQuery, RenderedResource } from '@doable/contracts-sync';

/** Active tasks chosen by a WHERE over `sync.items AS item`, `$1` the user id. */
export interface TaskSelection {
  readonly where: string;
  readonly params: readonly unknown[];
}

/** A task list query: what a dialect may have PostgreSQL write in one statement. */
export type TaskListQuery = Extract<RenderedQuery, { resource: 'tasks' | 'tasks_by_filter' }>;

/**
 * What a rendering dialect reads from, given by the sync service (which holds the reads and the
 * connection): a dialect decides how to write, never what the user may see.
 */
export interface RenderSource {
  /** The query's objects in the api/v1 shape, read under the read policy as every answer is. */
  objects<R extends RenderedResource>(query: ObjectQueryFor<R>): Promise<{ readonly objects: readonly ObjectOf<R>[]; readonly hasMore: boolean }>;
  /** The task list as one WHERE, or undefined where it is not one unpaged SELECT. */
  taskSelection(query: TaskListQuery): Promise<TaskSelection | undefined>;
  /** Runs one statement on the read's connection. */
  query<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
}

/** An answer as the JSON of its dialect: text, or its UTF-8 bytes (a task list PostgreSQL wrote). */
export interface RenderedAnswer {
  readonly body: string | Buffer;
  readonly hasMore: boolean;
}

/**
 * A dialect that writes whole answers as text (`ObjectsRequest.render`): REST v2. One call, which
 * chooses between its writers (PostgreSQL's for a task list, JavaScript's for the rest).
 */
export interface ObjectRenderer {
  render(query: RenderedQuery, render: ObjectsRender, source: RenderSource): Promise<RenderedAnswer>;
}
