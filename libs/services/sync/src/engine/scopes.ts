import type { Principal, Scope } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { QUICK_ADD_COMMAND } from './commands/items/item-quick-add.command';

/**
 * What an OAuth scope allows in the Sync API (sync-interface §5.4). A personal token carries
 * every scope. Each rule lists alternatives: holding any one of them is enough.
 */
const DELETES_NEEDING_DATA_DELETE = new Set(['item_delete', 'label_delete', 'label_delete_occurrences', 'filter_delete', 'folder_delete', 'workspace_filter_delete']);

/** Deleting a workspace deletes its projects: the project-deleting scope (a guess where §5.4 is silent). */
const DELETES_PROJECTS = new Set(['project_delete', 'workspace_delete']);

/** Quick add (an internal command) adds a task too: the same scopes as item_add. */
const ADDS_A_TASK = new Set(['item_add', 'item_add_flat', QUICK_ADD_COMMAND]);

export function requiredScopes(commandType: string): readonly Scope[] {
  if (ADDS_A_TASK.has(commandType)) return ['task:add', 'data:read_write'];
  if (DELETES_PROJECTS.has(commandType)) return ['project:delete'];
  if (DELETES_NEEDING_DATA_DELETE.has(commandType)) return ['data:delete'];
  return ['data:read_write'];
}

/**
 * `user_update` arguments that change how the account logs in. Only the account's own personal
 * token may send them: an application with data:read_write could otherwise set a password on
 * an account that has none (no current password is asked then) and take the account over.
 */
const CREDENTIAL_ARGS = ['email', 'password'] as const;

function changesCredentials(commandType: string, args: Readonly<Record<string, unknown>>): boolean {
  return commandType === 'user_update' && CREDENTIAL_ARGS.some((name) => args[name] !== undefined);
}

export function mayRunCommand(principal: Principal, commandType: string, args: Readonly<Record<string, unknown>> = {}): boolean {
  if (changesCredentials(commandType, args) && principal.tokenKind !== 'personal') return false;
  return requiredScopes(commandType).some((scope) => principal.scopes.includes(scope));
}

/** Why a command the token may not run was refused (FORBIDDEN, its own sync_status). */
export function commandRefusal(commandType: string, args: Readonly<Record<string, unknown>> = {}): DomainError {
  if (changesCredentials(commandType, args)) {
    return new DomainError('FORBIDDEN', 'Only the account\'s personal token may change its email or password', { argument: 'password' });
  }
  return new DomainError('FORBIDDEN', `This token may not run ${commandType}`, { required_scopes: requiredScopes(commandType) });
}

/** `task:add` alone adds tasks without seeing anything. */
export function mayRead(principal: Principal): boolean {
  return principal.scopes.includes('data:read') || principal.scopes.includes('data:read_write');
}
