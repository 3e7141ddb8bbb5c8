import { SyncEvents, type CollaboratorLeft } from '@doable/contracts-sync';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import { draftsFor, type RegisterProducer } from './notification-producer';

/**
 * A collaborator left (user_left_project, to the members who remain) or was removed
 * (user_removed_from_project, to the members who remain and to the removed user). Whoever did
 * it is not told. A user may leave the same project more than once, so the key is the event's.
 */
export function collaboratorProducers(register: RegisterProducer, notifications: LiveNotificationRepository): void {
  register('collaborator-left', SyncEvents.collaboratorLeft, (change: CollaboratorLeft, tx, eventId) => {
    const left = change.removedBy === null;
    const type = left ? 'user_left_project' : 'user_removed_from_project';
    const actor = change.removedBy ?? change.userId;
    const receivers = left ? change.memberIds : [...change.memberIds, change.userId];
    return notifications.insert(
      tx.manager,
      draftsFor(receivers, actor, (receiver) => ({
        key: `${type}:${eventId}:${receiver}`,
        type,
        fromUid: actor,
        data: left ? { project_id: change.projectId } : { project_id: change.projectId, removed_name: change.userName, removed_uid: change.userId },
      })),
    );
  });
}
