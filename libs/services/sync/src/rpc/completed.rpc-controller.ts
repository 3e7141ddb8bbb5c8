import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { readScopes, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Database, RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { CompletedService } from '../completed-history/completed.service';
import { ProductivityStatsService } from '@doable/sync-domain';

/**
 * Completed history over the transport: v9 reads query or form parameters; api/v1 query parameters.
 * v9's productivity stats (`completed/get_stats`, `get_productivity_stats`) come here too.
 */
@RpcController()
export class CompletedRpcController {
  constructor(
    private readonly completed: CompletedService,
    private readonly productivity: ProductivityStatsService,
    private readonly database: Database,
  ) {}

  @Handles(SyncSubjects.completed, { principal: { anyScope: readScopes('completed') } })
  async completedTasks(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const userId = request.principal.userId;
    if (request.dialect === 'sync-v9' && /\/(completed\/get_stats|get_productivity_stats)\/?$/.test(request.path)) {
      // Both names answer the productivity stats (get_stats is the older one), as api/v1 `tasks/completed/stats` does.
      return jsonReply(200, await this.database.readSnapshot((manager) => this.productivity.stats(manager, userId)));
    }
    if (request.dialect === 'sync-v9') {
      const form = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
      return jsonReply(200, await this.completed.getAll(userId, { ...request.query, ...form }));
    }
    if (request.dialect === 'rest-api-v1') return jsonReply(200, await this.completed.apiV1(userId, request.path, request.query));
    throw new DomainError('ROUTE_NOT_FOUND', `completed history does not speak ${request.dialect}`);
  }
}
