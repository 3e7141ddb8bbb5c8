import { renderSyncEnvelope } from '../shared/sync-envelope';
import { parseSyncRequest } from '../shared/sync-request.parser';
import type { SyncDialect } from '../shared/sync-dialect';
import { syncApiV1Writers } from './sync-api-v1.writers';

/** The unified API v1 at `/api/v1/sync`: the request as v9 takes it, objects in the v1 shapes. */
export const syncApiV1Dialect: SyncDialect = {
  name: 'sync-api-v1',
  parseRequest: (body) => parseSyncRequest(body),
  render: (result) => renderSyncEnvelope(result, syncApiV1Writers),
  writers: syncApiV1Writers,
};
