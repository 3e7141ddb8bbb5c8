import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { readScopes, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Database, RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { ArchivedItems } from '../objects/archived-items';
import { ArchivedListings } from '../objects/archived-listings';

/** Sync v9's archive listings (projects/get_archived, archive/sections, archive/items) over the transport (api/v1 has them as REST endpoints). */
@RpcController()
export class ArchivedRpcController {
  constructor(
    private readonly listings: ArchivedListings,
    private readonly database: Database,
    private readonly items: ArchivedItems,
  ) {}

  @Handles(SyncSubjects.archived, { principal: { anyScope: readScopes('archived') } })
  async archived(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const params = { ...request.query, ...(request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {}) };
    const manager = this.database.dataSource.manager;
    const userId = request.principal.userId;
    if (request.path.endsWith('/projects/get_archived')) return jsonReply(200, await this.listings.projects(manager, userId, params));
    if (request.path.endsWith('/archive/sections')) return jsonReply(200, await this.listings.sections(manager, userId, params));
    if (request.path.endsWith('/archive/items')) return jsonReply(200, await this.database.readSnapshot((snapshot) => this.items.list(snapshot, userId, params)));
    throw new DomainError('ROUTE_NOT_FOUND', `No endpoint at ${request.path}`);
  }
}
