import type { SyncDialect, SyncDialectName } from './shared/sync-dialect';
import { syncApiV1Dialect } from './sync-api-v1/sync-api-v1.dialect';
import { syncV6Dialect } from './sync-v6/sync-v6.dialect';
import { syncV7Dialect } from './sync-v7/sync-v7.dialect';
import { syncV8Dialect } from './sync-v8/sync-v8.dialect';
import { syncV9Dialect } from './sync-v9/sync-v9.dialect';

/** Every Sync API generation served, by the dialect name the gateway's route table gives. */
export const SYNC_DIALECTS: Readonly<Record<SyncDialectName, SyncDialect>> = {
  'sync-v8': syncV8Dialect,
  'sync-v9': syncV9Dialect,
  'sync-api-v1': syncApiV1Dialect,
  'sync-v7': syncV7Dialect,
  'sync-v6': syncV6Dialect,
};

export function isSyncDialect(name: string): name is SyncDialectName {
  return Object.hasOwn(SYNC_DIALECTS, name);
}
