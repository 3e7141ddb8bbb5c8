import type { Principal, Scope } from '@doable/contracts-common';

/**
 * What an OAuth scope allows in the Sync API (sync-interface §5.4). A personal token carries
 * every scope. Each rule lists alternatives: holding any one of them is enough.
 */
const DELETES_NEEDING_DATA_DELETE = new Set(['item_delete', 'label_delete', 'label_delete_occurrences', 'filter_delete']);

export function requiredScopes(commandType: string): readonly Scope[] {
  if (commandType === 'item_add') return ['task:add', 'data:read_write'];
  if (commandType === 'project_delete') return ['project:delete'];
  if (DELETES_NEEDING_DATA_DELETE.has(commandType)) return ['data:delete'];
  return ['data:read_write'];
}

export function mayRunCommand(principal: Principal, commandType: string): boolean {
  return requiredScopes(commandType).some((scope) => principal.scopes.includes(scope));
}

/** `task:add` alone adds tasks without seeing anything. */
export function mayRead(principal: Principal): boolean {
  return principal.scopes.includes('data:read') || principal.scopes.includes('data:read_write');
}
