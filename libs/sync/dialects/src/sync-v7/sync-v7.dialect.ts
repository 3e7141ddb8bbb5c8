import type { SyncRequest } from '@doable/sync-engine';
import { canonicalOldSyncCommands, EMPTY_OLD_SYNC_CONTEXT, OLD_SYNC_READ_NEEDS, oldResourceTypes, oldSyncRenderParams, oldSyncWriters, renderOldSync } from '../legacy';
import { parseSyncRequest } from '../shared/sync-request.parser';
import type { SyncDialect } from '../shared/sync-dialect';

/** `resource_types` with v7's `all`; text that is no JSON array is left for the shared parser to refuse. */
function withV7ResourceTypes(body: Record<string, unknown>): Record<string, unknown> {
  let types: unknown = body['resource_types'];
  if (typeof types === 'string') {
    try {
      types = JSON.parse(types) as unknown;
    } catch {
      return body;
    }
  }
  return Array.isArray(types) ? { ...body, resource_types: oldResourceTypes(types) } : body;
}

/**
 * A v7 request as the engine's: the read parameters as today (`sync_token`, `resource_types`), each
 * command renamed to the domain's (dialects/legacy old-sync-commands), the flat lists' read needs,
 * and for the render each command's v7 type and `day_orders_timestamp`.
 */
export function parseV7Request(rawBody: unknown): SyncRequest {
  const body = (rawBody && typeof rawBody === 'object' && !Array.isArray(rawBody) ? rawBody : {}) as Record<string, unknown>;
  const parsed = parseSyncRequest(withV7ResourceTypes(body));
  const { commands, commandTypes } = canonicalOldSyncCommands(parsed.commands);
  return { ...parsed, commands, readNeeds: OLD_SYNC_READ_NEEDS, renderParams: oldSyncRenderParams(commandTypes, body['day_orders_timestamp']) };
}

/**
 * Sync v7 at `/API/v7/sync` and `/api/v7/sync` (the form `token` is taken by the gateway): integer
 * ids, flat task lists (`item_order`, `indent`), legacy dues, colours and timestamps, the shared
 * envelope's snake_case keys with an opaque `sync_token`.
 */
export const syncV7Dialect: SyncDialect = {
  name: 'sync-v7',
  parseRequest: (body) => parseV7Request(body),
  render: (result, request) => renderOldSync(result, request),
  // A single object answered alone (quick add): no read to place it by, see EMPTY_OLD_SYNC_CONTEXT.
  writers: oldSyncWriters(EMPTY_OLD_SYNC_CONTEXT),
};
