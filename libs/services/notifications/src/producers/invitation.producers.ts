import { SyncEvents, type ShareInvitationAnswered, type ShareInvitationBlocked, type ShareInvitationSent } from '@doable/contracts-sync';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import type { InvitationMailer } from '../mail/invitation-mailer';
import { invitationKindProducers } from './invitation-kind.producers';
import type { RegisterProducer } from './notification-producer';

/** The receiver's share_invitation_sent notification: one per invitation, whoever receives it. */
export const invitationSentKey = (invitationId: string): string => `share_invitation_sent:${invitationId}`;

/**
 * Project invitations (sync-interface §6), made by invitationKindProducers: the producers
 * share-invitation-sent and share-invitation-answered. An invitation to an address without an
 * account is mailed. An answer tells the sender (accepted, rejected). An invitation the project's
 * collaborator limit blocked tells whoever tried (share_invitation_blocked_by_project_limit), and
 * the project's owner too, whose plan sets it.
 */
export function invitationProducers(register: RegisterProducer, notifications: LiveNotificationRepository, mailer: InvitationMailer): void {
  invitationKindProducers(register, notifications, {
    name: 'share',
    sent: SyncEvents.shareInvitationSent,
    answered: SyncEvents.shareInvitationAnswered,
    inviteeType: 'share_invitation_sent',
    inviteeKey: invitationSentKey,
    place: (invitation: ShareInvitationSent) => ({ project_name: invitation.projectName }),
    // Until the address has an account, a mail is the only way to reach the receiver.
    withoutAccount: (invitation, tx) => mailer.sendInvitation(invitation, tx),
    answerReceivers: (answer: ShareInvitationAnswered) => [answer.inviterId],
    // One receiver, so the key needs none.
    answerKey: (type, answer) => `${type}:${answer.invitationId}`,
    answerData: (answer) => ({
      project_name: answer.projectName,
      invitation_id: answer.invitationId,
      project_id: answer.projectId,
      ...(answer.answer === 'rejected' ? { reject_email: answer.actor.email } : {}),
    }),
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
