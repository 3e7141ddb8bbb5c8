import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { QuickAddService } from '../quick-add/quick-add.service';

/** Quick add over the transport: v7/v8/v9 `quick/add` answer a v7/v8/v9 item, api/v1 `tasks/quick` an API v1 task. */
@RpcController()
export class QuickAddRpcController {
  constructor(private readonly quickAdd: QuickAddService) {}

  @Handles(SyncSubjects.quickAdd, { principal: true })
  async add(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    if (request.dialect !== 'sync-v7' && request.dialect !== 'sync-v8' && request.dialect !== 'sync-v9' && request.dialect !== 'rest-api-v1') throw new DomainError('ROUTE_NOT_FOUND', `quick add does not speak ${request.dialect}`);
    const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
    return jsonReply(200, await this.quickAdd.quickAdd(request.principal, request.dialect, { ...request.query, ...body }, request.requestId));
  }
}
