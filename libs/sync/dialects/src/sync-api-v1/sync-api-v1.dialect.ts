import { renderSyncEnvelope } from '../shared/sync-envelope';
import { parseSyncRequest } from '../shared/sync-request.parser';
import { API_V1_JSON } from '../shared/sync-json';
import type { SyncDialect } from '../shared/sync-dialect';
import { syncApiV1Writers } from './sync-api-v1.writers';

/**
 * The unified API v1 at `/api/v1/sync`: the request as v9 takes it, objects in the v1 shapes; a
 * full sync's tasks and comments written by PostgreSQL (API_V1_JSON).
 */
export const syncApiV1Dialect: SyncDialect = {
  name: 'sync-api-v1',
  parseRequest: (body) => ({ ...parseSyncRequest(body), readNeeds: { json: API_V1_JSON } }),
  render: (result) => renderSyncEnvelope(result, syncApiV1Writers),
  writers: syncApiV1Writers,
};
