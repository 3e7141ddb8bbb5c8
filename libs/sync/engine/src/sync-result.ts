import type { SyncRead } from '@doable/sync-read';
import type { CommandStatus } from './command-status';

/** The outcome of a sync request in domain terms; each dialect renders it in its own shape. */
export interface SyncResult {
  readonly read?: SyncRead;
  readonly syncStatus?: Record<string, CommandStatus>;
  readonly tempIdMapping: Record<string, string>;
}
