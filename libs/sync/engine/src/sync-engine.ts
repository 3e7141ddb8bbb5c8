import type { Principal } from '@doable/contracts-common';
import { readScopes } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { type SyncRead, SyncReader } from '@doable/sync-read';
import type { SyncResult } from './sync-result';
import { CommandExecutor } from './command-executor';
import { mayRead } from './scopes';
import type { SyncRequest } from './sync-request';

/**
 * One Sync API request: commands first (in order), then the read, so a write response
 * carries the objects the request created (clients read them from it).
 */
@Injectable()
export class SyncEngine {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly reader: SyncReader,
  ) {}

  async sync(principal: Principal, request: SyncRequest): Promise<SyncResult> {
    // Refused before anything runs: a request is never half executed for want of a scope.
    if (request.syncToken !== null && !mayRead(principal)) {
      throw new DomainError('FORBIDDEN', 'This token may not read data (it needs data:read or data:read_write)', { required_scopes: readScopes('sync') });
    }
    // The read's arguments too: a request answered 400 for its sync token must not have run its commands.
    if (request.syncToken !== null) this.reader.check(principal.userId, request.syncToken, request.resourceTypes);
    const results = request.commands.length > 0 ? await this.executor.run(principal, request.commands) : undefined;
    // After the request's own commands, the read is on the primary: a read replica would first wait for them.
    const read = request.syncToken === null ? undefined : await this.reader.read(principal.userId, request.syncToken, request.resourceTypes, request.readNeeds, { afterWrite: results !== undefined });
    return { read: read && this.withRoleActions(read), syncStatus: results?.syncStatus, tempIdMapping: results?.tempIdMapping ?? {} };
  }

  /** role_actions is the code's table, not the account's: whole on a full sync that asks for it, from the commands' policies. */
  private withRoleActions(read: SyncRead): SyncRead {
    return read.fullSync && read.types.has('role_actions') ? { ...read, rolePermissions: this.executor.policies.rolePermissions() } : read;
  }
}
