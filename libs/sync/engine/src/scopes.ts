import { holdsAnyScope, type Principal, type Scope } from '@doable/contracts-common';
import { type CommandPolicy, DATA_READ_WRITE, type EdgeRead, readDecision } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';

/**
 * What an OAuth scope allows in the Sync API (sync-interface §5.4), read from the command's
 * declaration (CommandPolicy.scopes: any one of them is enough; a personal token carries every
 * scope). `policy` undefined: a type no handler declares, asked what any write asks (it is then
 * refused as UNKNOWN_COMMAND, or FORBIDDEN first for a token that may not write at all).
 */
export function requiredScopes(policy: CommandPolicy | undefined): readonly Scope[] {
  return policy?.scopes ?? DATA_READ_WRITE;
}

/** Whether the command sends an argument only the account's own personal token may (CommandPolicy.personalTokenArgs). */
function personalTokenArgument(policy: CommandPolicy | undefined, args: Readonly<Record<string, unknown>>): string | undefined {
  return policy?.personalTokenArgs.find((name) => args[name] !== undefined);
}

export function mayRunCommand(principal: Principal, policy: CommandPolicy | undefined, args: Readonly<Record<string, unknown>> = {}): boolean {
  if (personalTokenArgument(policy, args) !== undefined && principal.tokenKind !== 'personal') return false;
  return holdsAnyScope(principal, requiredScopes(policy));
}

/** Why a command the token may not run was refused (FORBIDDEN, its own sync_status). */
export function commandRefusal(commandType: string, policy: CommandPolicy | undefined, args: Readonly<Record<string, unknown>> = {}): DomainError {
  const argument = personalTokenArgument(policy, args);
  if (argument !== undefined) {
    // Named `password` whichever was sent, as before: the one argument clients surface.
    return new DomainError('FORBIDDEN', 'Only the account\'s personal token may change its email or password', { argument: 'password' });
  }
  return new DomainError('FORBIDDEN', `This token may not run ${commandType}`, { required_scopes: requiredScopes(policy) });
}

/** `task:add` alone adds tasks without seeing anything: the read policy's rule for the account's data (sync, templates, first generation). */
export function mayRead(principal: Principal, read: EdgeRead = 'sync'): boolean {
  return readDecision(read, principal) === 'ok';
}
