import { withIntegerArchivedProjectIds } from '../legacy/live-notification-ids';
import { renderSyncEnvelope } from '../shared/sync-envelope';
import { parseSyncRequest } from '../shared/sync-request.parser';
import { V9_JSON } from '../shared/sync-json';
import type { SyncDialect } from '../shared/sync-dialect';
import { syncV9Writers } from './sync-v9.writers';

/**
 * Sync v9 at `/sync/v9/sync`: the request as every current client sends it, the shared envelope,
 * with project_archived's project_id as the spec's integer (api/v1 keeps the SDK's string); a
 * full sync's tasks and comments written by PostgreSQL (V9_JSON).
 */
export const syncV9Dialect: SyncDialect = {
  name: 'sync-v9',
  parseRequest: (body) => ({ ...parseSyncRequest(body), readNeeds: { json: V9_JSON } }),
  render: (result) => {
    const body = renderSyncEnvelope(result, syncV9Writers);
    withIntegerArchivedProjectIds(body);
    return body;
  },
  writers: syncV9Writers,
};
