import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { notificationSettingsView, SyncSubjects } from '@doable/contracts-sync';
import { DomainError, domainErrorFromBody } from '@doable/shared-errors';
import { Database, RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { CommandExecutor, firstRefusal } from '@doable/sync-engine';
import { UserProfileRepository } from '@doable/sync-domain';
import { randomUUID } from 'node:crypto';

const DIALECTS: ReadonlySet<string> = new Set(['sync-v7', 'sync-v8', 'sync-v9', 'rest-api-v1']);

/**
 * The collaboration notification settings over the transport. The edge's update writes the
 * caller's own settings only (the principal's user: no argument names another) through the
 * internal update_notification_setting command and answers the settings whole, as the v8/v9
 * endpoint did.
 */
@RpcController()
export class NotificationSettingsRpcController {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly profiles: UserProfileRepository,
    private readonly database: Database,
  ) {}

  @Handles(SyncSubjects.notificationSettings, { principal: true })
  async update(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    if (!DIALECTS.has(request.dialect)) throw new DomainError('ROUTE_NOT_FOUND', `notification settings do not speak ${request.dialect}`);
    const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
    const params = { ...request.query, ...body };
    const uuid = randomUUID();
    const results = await this.executor.runInternal(request.principal, {
      type: 'update_notification_setting',
      uuid,
      args: { notification_type: params['notification_type'], service: params['service'], dont_notify: params['dont_notify'] },
    });
    const status = results.syncStatus[uuid];
    const refusal = status === undefined ? undefined : firstRefusal(status);
    if (refusal) throw domainErrorFromBody(refusal);
    const profile = await this.profiles.find(this.database.dataSource.manager, request.principal.userId);
    if (!profile) throw new DomainError('USER_NOT_FOUND');
    return jsonReply(200, notificationSettingsView(profile.notification_settings));
  }
}
