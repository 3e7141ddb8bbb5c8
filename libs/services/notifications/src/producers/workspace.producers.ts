import {
  SyncEvents,
  type WorkspaceDeleted,
  type WorkspaceInvitationAnswered,
  type WorkspaceInvitationSent,
  type WorkspaceProjectArchived,
  type WorkspaceUserJoined,
  type WorkspaceUserRemoved,
} from '@doable/contracts-sync';
import type { InvitationMailer } from '../mail/invitation-mailer';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import { invitationKindProducers } from './invitation-kind.producers';
import { draftsFor, type RegisterProducer } from './notification-producer';

/** The invitee's workspace_invitation_created notification: one per invitation, whoever receives it. */
export const workspaceInvitationCreatedKey = (invitationId: string): string => `workspace_invitation_created:${invitationId}`;

/**
 * sync-interface §6 gives workspace_id as an integer (project ids of the same table are strings,
 * which the SDK validates): workspace ids are well under 2^53, so the number is exact.
 */
const workspaceIdField = (workspaceId: string): number => Number(workspaceId);

/**
 * Workspace notifications (sync-interface §6), from sync's workspace events. Keys are derived
 * from the event (an invitation's id, a workspace's id, or the event id where the same fact can
 * happen again), with the receiver where there are several, so a redelivered or repeated event
 * makes no second notification. No one is told of their own action. Invitations are made as
 * project invitations are (invitationKindProducers: workspace-invitation-sent and -answered).
 * An invitation to an address without an account is mailed (its link signs the stranger up
 * and accepts it) and makes no notification: the event comes again when the account is created.
 * Guesses: a join by link tells no one (§6 names only the join by domain); workspace_user_joined_by_domain
 * carries from_user, workspace_id and workspace_name (§6 lists no fields for it).
 */
export function workspaceProducers(register: RegisterProducer, notifications: LiveNotificationRepository, mailer: InvitationMailer): void {
  invitationKindProducers(register, notifications, {
    name: 'workspace',
    sent: SyncEvents.workspaceInvitationSent,
    answered: SyncEvents.workspaceInvitationAnswered,
    inviteeType: 'workspace_invitation_created',
    inviteeKey: workspaceInvitationCreatedKey,
    place: (invitation: WorkspaceInvitationSent) => ({ workspace_id: workspaceIdField(invitation.workspaceId), workspace_name: invitation.workspaceName }),
    // Until the address has an account, a mail is the only way to reach the receiver.
    withoutAccount: (invitation, tx) => mailer.sendWorkspaceInvitation(invitation, tx),
    // Accepted: the inviter, and the admins too when the workspace is paid (§6); rejected: the inviter.
    answerReceivers: (answer: WorkspaceInvitationAnswered) =>
      answer.answer === 'accepted' && answer.planType === 'BUSINESS' ? [answer.inviterId, ...answer.adminIds] : [answer.inviterId],
    answerKey: (type, answer, receiver) => `${type}:${answer.invitationId}:${receiver}`,
    answerData: (answer) => ({ workspace_id: workspaceIdField(answer.workspaceId), workspace_name: answer.workspaceName, invitation_id: answer.invitationId }),
  });

  register('workspace-user-removed', SyncEvents.workspaceUserRemoved, (removal: WorkspaceUserRemoved, tx, eventId) => {
    // Leaving (removedBy null, or an admin removing themselves) tells no one.
    if (removal.removedBy === null) return Promise.resolve([]);
    const remover = removal.removedBy;
    return notifications.insert(
      tx.manager,
      draftsFor([removal.userId], remover.id, () => ({
        // A user may be removed from the same workspace more than once (rejoining between).
        key: `removed_from_workspace:${eventId}`,
        type: 'removed_from_workspace',
        fromUid: remover.id,
        data: { from_user: remover, workspace_id: workspaceIdField(removal.workspaceId), workspace_name: removal.workspaceName },
      })),
    );
  });

  register('workspace-deleted', SyncEvents.workspaceDeleted, (deleted: WorkspaceDeleted, tx) =>
    notifications.insert(
      tx.manager,
      draftsFor(deleted.memberIds, deleted.actor.id, (receiver) => ({
        // A workspace is deleted once.
        key: `workspace_deleted:${deleted.workspaceId}:${receiver}`,
        type: 'workspace_deleted',
        fromUid: deleted.actor.id,
        data: { from_user: deleted.actor, workspace_id: workspaceIdField(deleted.workspaceId), workspace_name: deleted.workspaceName },
      })),
    ),
  );

  register('workspace-user-joined', SyncEvents.workspaceUserJoined, (joined: WorkspaceUserJoined, tx, eventId) => {
    if (joined.via !== 'domain') return Promise.resolve([]);
    return notifications.insert(
      tx.manager,
      draftsFor(joined.adminIds, joined.user.id, (receiver) => ({
        key: `workspace_user_joined_by_domain:${eventId}:${receiver}`,
        type: 'workspace_user_joined_by_domain',
        fromUid: joined.user.id,
        data: { from_user: joined.user, workspace_id: workspaceIdField(joined.workspaceId), workspace_name: joined.workspaceName },
      })),
    );
  });

  register('workspace-project-archived', SyncEvents.workspaceProjectArchived, (archived: WorkspaceProjectArchived, tx, eventId) =>
    notifications.insert(
      tx.manager,
      draftsFor(archived.memberIds, archived.actor.id, (receiver) => ({
        // A project may be archived, unarchived and archived again: each time is news.
        key: `project_archived:${eventId}:${receiver}`,
        type: 'project_archived',
        fromUid: archived.actor.id,
        // Stored as the string api/v1 serves (the SDK validates a notification's projectId as a
        // string); §6's integer is written by the generations no SDK reads (sync-dialects' live-notification-ids).
        data: { from_user: archived.actor, project_id: archived.projectId, project_name: archived.projectName },
      })),
    ),
  );
}
