import type { Principal } from '@doable/contracts-common';
import { type ObjectQuery, type ObjectsReply, type ObjectsRequest, readDecision, readScopes } from '@doable/contracts-sync';
import { DomainError, domainErrorFromBody } from '@doable/shared-errors';
import { Database, type ReadSource } from '@doable/shared-runtime';
import type { WithBodyBytes } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import { renderingOf } from '@doable/sync-dialects';
import { CommandExecutor, firstRefusal } from '@doable/sync-engine';
import { DialectReads } from './dialect-reads';
import { ObjectQueryService } from './object-query.service';
import { answer } from './query-result';

/** Whether a query reads only the object a request's own command just created. */
function readsOnlyCreated(query: ObjectQuery, tempIds: Readonly<Record<string, string>>): boolean {
  return 'id' in query && Object.hasOwn(tempIds, query.id);
}

/** Whether the query reads a temp id one of the request's own commands should have created, but did not. */
function readsUnmadeTempId(request: ObjectsRequest, tempIds: Readonly<Record<string, string>>): boolean {
  const query = request.query;
  if (!query || !('id' in query)) return false;
  return request.commands.some((command) => command.temp_id === query.id) && !Object.hasOwn(tempIds, query.id);
}

/**
 * The resource-style dialects' entry into the domain: a request's commands run through the
 * Sync API's executor (same rules, uuid log and events), then the query reads the result.
 * A refused command fails the whole HTTP request with that command's own error (or its first
 * refused object's).
 */
@Injectable()
export class ObjectsService {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ObjectQueryService,
    private readonly dialectReads: DialectReads,
    private readonly database: Database,
  ) {}

  async handle(request: ObjectsRequest): Promise<WithBodyBytes<ObjectsReply>> {
    const { principal } = request;
    const rendering = renderingOf(request);
    const tempIdMapping = await this.runCommands(principal, request);
    if (!request.query) return { tempIdMapping, objects: [], hasMore: false };
    if (readsUnmadeTempId(request, tempIdMapping)) {
      // The uuid was logged for another request (a quick add, say), so replaying it made nothing under this temp id.
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'X-Request-Id was already used by a different request', { argument: 'X-Request-Id' });
    }
    // A token that may only add tasks still gets back the task it added (REST answers it).
    if (readDecision(request.query.resource, { scopes: principal.scopes, readsOwnCreation: readsOnlyCreated(request.query, tempIdMapping) }) !== 'ok') {
      throw new DomainError('FORBIDDEN', 'This token may not read data (it needs data:read or data:read_write)', { required_scopes: readScopes(request.query.resource) });
    }
    // The code's role table, not the account's data (the read policy lets any token read it, as it could when rest answered it alone).
    if (request.query.resource === 'role_permissions') return { tempIdMapping, ...answer(request.query, [{ ...this.executor.policies.rolePermissions() }]) };
    const query = request.query;
    const read = async ({ manager }: ReadSource): Promise<WithBodyBytes<ObjectsReply>> => {
      if (rendering) {
        const { body, hasMore } = await rendering.render(this.dialectReads.source(manager, principal.userId, tempIdMapping));
        return { tempIdMapping, objects: [], hasMore, body };
      }
      return { tempIdMapping, ...(await this.queries.run(manager, principal.userId, query, tempIdMapping, request.origin)) };
    };
    // Lists and object queries may go to the read replica (Database.read: there once it has every
    // commit that changed the user's data); after the request's own commands, to the primary,
    // where they were just written, rather than waiting for the replica to replay them.
    return request.commands.length > 0 ? read(this.database.primary) : this.database.read(principal.userId, read);
  }

  private async runCommands(principal: Principal, request: ObjectsRequest): Promise<Record<string, string>> {
    if (request.commands.length === 0) return {};
    const results = await this.executor.run(principal, request.commands);
    for (const command of request.commands) {
      const status = results.syncStatus[command.uuid];
      const refusal = status === undefined ? undefined : firstRefusal(status);
      if (refusal) throw domainErrorFromBody(refusal);
    }
    return results.tempIdMapping;
  }
}
