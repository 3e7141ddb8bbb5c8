import { renderSyncEnvelope } from '../shared/sync-envelope';
import { parseSyncRequest } from '../shared/sync-request.parser';
import type { SyncDialect } from '../shared/sync-dialect';
import { syncV9Writers } from './sync-v9.writers';

/** Sync v9 at `/sync/v9/sync`: the request as every current client sends it, the shared envelope. */
export const syncV9Dialect: SyncDialect = {
  name: 'sync-v9',
  parseRequest: (body) => parseSyncRequest(body),
  render: (result) => renderSyncEnvelope(result, syncV9Writers),
  writers: syncV9Writers,
};
