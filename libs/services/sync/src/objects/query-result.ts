import type { ObjectOf, ObjectQueryFor, ObjectResource } from '@doable/contracts-sync';

/** What a query of resource R answers: ObjectOf<R> objects (any resource's when R is not known). */
export interface QueryResult<R extends ObjectResource = ObjectResource> {
  readonly objects: readonly ObjectOf<R>[];
  readonly hasMore: boolean;
  readonly labelIds?: Record<string, string>;
}

/** The task lists: what rest pages, and what a rendering dialect may have PostgreSQL write. */
export type { TaskListQuery } from '@doable/sync-dialects';

/**
 * The answer to `query`: the objects must be of the type its resource reads (ObjectsByResource).
 * Every query's case answers through this, which is what ties each case to the contract.
 */
export function answer<R extends ObjectResource>(_query: ObjectQueryFor<R>, objects: readonly ObjectOf<R>[], hasMore = false): QueryResult<R> {
  return { objects, hasMore };
}
