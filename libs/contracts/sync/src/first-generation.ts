/**
 * The first-generation interface (public-api-facts §1.8; Todoist's API help of 2007-2014), one
 * list read by the gateway (its routes) and the sync service (its dispatch).
 */

/** `/API/<call>`, answered over GET and POST, parameters from the query or the form. */
export const FIRST_GENERATION_CALLS = [
  'login',
  'getProjects',
  'getProject',
  'getLabels',
  'getUncompletedItems',
  'getCompletedItems',
  'getItemsById',
  'addItem',
  'updateItem',
  'deleteItems',
  'completeItems',
  'query',
] as const;
export type FirstGenerationCall = (typeof FIRST_GENERATION_CALLS)[number];

/**
 * `/TodoistSync/<version>/<call>`, the sync calls beside `/API/*` (v2 .. v5.3; v6 moved to
 * `/API/v6/sync`). `syncAndGetUpdated` is the documented name; `syncAndGet` is the name
 * sync-interface §9 uses, served the same.
 */
export const FIRST_GENERATION_SYNC_CALLS = ['get', 'sync', 'syncAndGetUpdated', 'syncAndGet'] as const;
export type FirstGenerationSyncCall = (typeof FIRST_GENERATION_SYNC_CALLS)[number];

/** The versions of the `TodoistSync` path clients were written against. */
export const FIRST_GENERATION_SYNC_VERSIONS = ['v2', 'v3', 'v4', 'v5', 'v5.1', 'v5.2', 'v5.3'] as const;

/** The calls that authenticate: the token as `token` (the `/API/*` calls) or `api_token` (the sync calls), in the query or the form. */
export const FIRST_GENERATION_TOKEN_FIELDS = ['token', 'api_token'] as const;

/**
 * The calls that write. The first generation wrote over GET as readily as over POST, so on these
 * a GET is no read: the gateway never sends one again to another replica (a retry could add a
 * task twice; `sync` has its timestamps, the single calls nothing).
 */
export const FIRST_GENERATION_WRITES: ReadonlySet<FirstGenerationCall | FirstGenerationSyncCall> = new Set<FirstGenerationCall | FirstGenerationSyncCall>([
  'addItem',
  'updateItem',
  'deleteItems',
  'completeItems',
  'sync',
  'syncAndGetUpdated',
  'syncAndGet',
]);
