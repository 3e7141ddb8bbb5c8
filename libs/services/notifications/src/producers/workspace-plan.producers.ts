import { SyncEvents, type WorkspacePlanTypeChanged } from '@doable/contracts-sync';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import type { RegisterProducer } from './notification-producer';

/**
 * A workspace's plan type changed (sync-interface §6): teams_workspace_upgraded when it became
 * BUSINESS, teams_workspace_canceled when it went back to STARTER, to each of its admins and
 * members (the event's memberIds; guests are not told), with workspace_id (an integer, as on the
 * other workspace notifications: see workspaceIdField), workspace_name and plan_type (the new one). The key is the workspace, the plans service's revision and the
 * receiver, so a redelivered event makes no second notification while a later change makes its own.
 *
 * `from_uid` is the receiver (clients read it as a non-null string): the change is the operator's
 * (`npm run cli -- set-workspace-plan`), who is no user here.
 *
 * teams_workspace_payment_failed is never sent: Doable has no billing, so no payment can fail.
 */
export function workspacePlanProducers(register: RegisterProducer, notifications: LiveNotificationRepository): void {
  register('workspace-plan-type-changed', SyncEvents.workspacePlanTypeChanged, (change: WorkspacePlanTypeChanged, tx) => {
    const type = change.planType === 'BUSINESS' ? 'teams_workspace_upgraded' : 'teams_workspace_canceled';
    return notifications.insert(
      tx.manager,
      [...new Set(change.memberIds)].map((userId) => ({
        userId,
        key: `${type}:${change.workspaceId}:${change.revision}:${userId}`,
        type,
        fromUid: userId,
        data: { workspace_id: Number(change.workspaceId), workspace_name: change.workspaceName, plan_type: change.planType },
      })),
    );
  });
}
