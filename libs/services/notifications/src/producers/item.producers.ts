import { SyncEvents, type ItemAssigned, type ItemCompletionChanged } from '@doable/contracts-sync';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import { draftsFor, type RegisterProducer } from './notification-producer';

/** The fields every task notification carries (sync-interface §6: "same as item_assigned"). */
function itemFields(itemId: string, content: string, projectId: string, assignedBy: string | null, responsibleUid: string): Record<string, unknown> {
  // An assignment whose assigner is not known has no assigned_by_uid (clients read it as a non-null string).
  return { item_id: itemId, item_content: content, project_id: projectId, ...(assignedBy === null ? {} : { assigned_by_uid: assignedBy }), responsible_uid: responsibleUid };
}

/**
 * Assigned tasks. item_assigned goes to the responsible user, and to the task's creator when
 * the creator is not the assigner; item_completed and item_uncompleted go to the assigner, and
 * to the responsible user when someone else completed it. Never to the user who acted.
 */
export function itemProducers(register: RegisterProducer, notifications: LiveNotificationRepository): void {
  register('item-assigned', SyncEvents.itemAssigned, (assignment: ItemAssigned, tx, eventId) =>
    notifications.insert(
      tx.manager,
      draftsFor([assignment.responsibleUid, assignment.creatorId !== assignment.assignedBy ? assignment.creatorId : null], assignment.assignedBy, (receiver) => ({
        key: `item_assigned:${eventId}:${receiver}`,
        type: 'item_assigned',
        fromUid: assignment.assignedBy,
        data: itemFields(assignment.itemId, assignment.itemContent, assignment.projectId, assignment.assignedBy, assignment.responsibleUid),
      })),
    ),
  );

  register('item-completion-changed', SyncEvents.itemCompletionChanged, (change: ItemCompletionChanged, tx, eventId) => {
    const type = change.completed ? 'item_completed' : 'item_uncompleted';
    return notifications.insert(
      tx.manager,
      draftsFor([change.assignedBy, change.responsibleUid], change.actorId, (receiver) => ({
        key: `${type}:${eventId}:${receiver}`,
        type,
        fromUid: change.actorId,
        data: itemFields(change.itemId, change.itemContent, change.projectId, change.assignedBy, change.responsibleUid),
      })),
    );
  });
}
