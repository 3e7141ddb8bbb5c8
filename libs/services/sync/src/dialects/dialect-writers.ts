import type { SyncDialect } from '../read/resource-source';
import type { SyncObjectWriters } from './sync-envelope';
import { syncApiV1Writers } from './sync-api-v1.dialect';
import { syncV9Writers } from './sync-v9.dialect';

/** The object writers of each Sync API dialect. */
export const DIALECT_WRITERS: Readonly<Record<SyncDialect, SyncObjectWriters>> = { 'sync-v9': syncV9Writers, 'sync-api-v1': syncApiV1Writers };
