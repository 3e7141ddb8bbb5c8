/**
 * The wire as the web app sees it (issue #46): the api/v1 objects the sync service answers with,
 * as types only (the sync contracts' `wire` entry). The web app (apps/web, `scope:web`) may import
 * nothing else from the monorepo but this and the quick add name matcher it bundles
 * (eslint.config.mjs): types are erased by the bundler, so the contracts' runtime (schemas,
 * subjects) never reaches the browser, and a change of an object's keys on the server fails the
 * app's type check instead of drifting. Only type exports here: types-only.spec.ts holds it to that.
 */
export type * from '@doable/contracts-sync/wire';
