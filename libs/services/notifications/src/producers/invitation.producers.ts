import { SyncEvents, type ShareInvitationAnswered, type ShareInvitationBlocked, type ShareInvitationSent } from '@doable/contracts-sync';
import type { LiveNotificationRepository } from '../live-notification.repository';
import type { InvitationMailer } from '../invitation-mailer';
import type { RegisterProducer } from './notification-producer';

/** The receiver's share_invitation_sent notification: one per invitation, whoever receives it. */
export const invitationSentKey = (invitationId: string): string => `share_invitation_sent:${invitationId}`;

/**
 * Invitations (sync-interface §6). The receiver's share_invitation_sent notification carries the
 * secret that accept_invitation and reject_invitation need; sending the invitation again (a new
 * secret) refreshes that notification instead of adding one. An answer tells the sender
 * (accepted, rejected) and moves the receiver's notification's `state`; a deleted invitation
 * deletes it. An invitation the project's collaborator limit blocked tells whoever tried
 * (share_invitation_blocked_by_project_limit), and the project's owner too, whose plan sets it.
 */
export function invitationProducers(register: RegisterProducer, notifications: LiveNotificationRepository, mailer: InvitationMailer): void {
  register('share-invitation-sent', SyncEvents.shareInvitationSent, async (invitation: ShareInvitationSent, tx) => {
    if (invitation.inviteeId === null || invitation.inviteeId === invitation.inviter.id) {
      // No account has the address yet: the invitation waits in sync and this event comes again
      // when one is created. Until then a mail is the only way to reach the receiver.
      if (invitation.inviteeId === null) await mailer.sendInvitation(invitation);
      return [];
    }
    return notifications.upsert(tx.manager, {
      userId: invitation.inviteeId,
      key: invitationSentKey(invitation.invitationId),
      type: 'share_invitation_sent',
      fromUid: invitation.inviter.id,
      data: {
        from_user: invitation.inviter,
        project_name: invitation.projectName,
        invitation_id: invitation.invitationId,
        invitation_secret: invitation.invitationSecret,
        state: 'invited',
      },
    });
  });

  register('share-invitation-answered', SyncEvents.shareInvitationAnswered, async (answer: ShareInvitationAnswered, tx) => {
    const receiver = invitationSentKey(answer.invitationId);
    if (answer.answer === 'deleted') return notifications.markDeleted(tx.manager, receiver);
    const told =
      answer.inviterId === answer.actor.id
        ? []
        : await notifications.insert(tx.manager, [
            {
              userId: answer.inviterId,
              key: `share_invitation_${answer.answer}:${answer.invitationId}`,
              type: `share_invitation_${answer.answer}`,
              fromUid: answer.actor.id,
              data: {
                from_user: answer.actor,
                project_name: answer.projectName,
                invitation_id: answer.invitationId,
                project_id: answer.projectId,
                ...(answer.answer === 'rejected' ? { reject_email: answer.actor.email } : {}),
              },
            },
          ]);
    return [...told, ...(await notifications.setState(tx.manager, receiver, answer.answer))];
  });

  register('share-invitation-blocked', SyncEvents.shareInvitationBlocked, (blocked: ShareInvitationBlocked, tx, eventId) => {
    // Unlike the other producers, the one who acted is told: their invitation did not go out.
    const receivers = [...new Set([blocked.inviter.id, blocked.ownerId])];
    return notifications.insert(
      tx.manager,
      receivers.map((receiver) => ({
        userId: receiver,
        // Each refused share_project is one event (a replayed uuid emits none), so one notification each.
        key: `share_invitation_blocked_by_project_limit:${eventId}:${receiver}`,
        type: 'share_invitation_blocked_by_project_limit',
        fromUid: blocked.inviter.id,
        data: {
          from_user: blocked.inviter,
          project_id: blocked.projectId,
          project_name: blocked.projectName,
          invitee_email: blocked.inviteeEmail,
          max_count: blocked.maxCount,
        },
      })),
    );
  });
}
