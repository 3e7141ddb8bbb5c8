import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { readScopes, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { ActivityLogService } from '../activity/activity-log.service';

/** The activity log over the transport: `activity/get` reads query and form parameters; api/v1 `activities` query parameters. */
@RpcController()
export class ActivityRpcController {
  constructor(private readonly activity: ActivityLogService) {}

  @Handles(SyncSubjects.activity, { principal: { anyScope: readScopes('activity') } })
  async activityLog(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const userId = request.principal.userId;
    if (request.dialect === 'rest-api-v1') return jsonReply(200, await this.activity.activities(userId, request.query));
    if (request.dialect === 'sync-v9' || request.dialect === 'sync-v8' || request.dialect === 'sync-v7') {
      const form = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
      return jsonReply(200, await this.activity.get(userId, request.dialect, { ...request.query, ...form }));
    }
    throw new DomainError('ROUTE_NOT_FOUND', `the activity log does not speak ${request.dialect}`);
  }
}
