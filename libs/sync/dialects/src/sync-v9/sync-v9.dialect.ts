import { withIntegerArchivedProjectIds } from '../legacy/live-notification-ids';
import { renderSyncEnvelope } from '../shared/sync-envelope';
import { parseSyncRequest } from '../shared/sync-request.parser';
import type { SyncDialect } from '../shared/sync-dialect';
import { syncV9Writers } from './sync-v9.writers';

/**
 * Sync v9 at `/sync/v9/sync`: the request as every current client sends it, the shared envelope,
 * with project_archived's project_id as the spec's integer (api/v1 keeps the SDK's string).
 */
export const syncV9Dialect: SyncDialect = {
  name: 'sync-v9',
  parseRequest: (body) => parseSyncRequest(body),
  render: (result) => {
    const body = renderSyncEnvelope(result, syncV9Writers);
    withIntegerArchivedProjectIds(body);
    return body;
  },
  writers: syncV9Writers,
};
