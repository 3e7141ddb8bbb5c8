import type { EventSubject } from '@doable/contracts-common';
import type { NotificationPerson } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import { draftsFor, type RegisterProducer } from './notification-producer';

/** What every kind of invitation's sent event says (see the invitation events in contracts-sync). */
interface SentInvitation {
  readonly invitationId: string;
  readonly invitationSecret: string;
  readonly inviter: NotificationPerson;
  readonly inviteeId: string | null;
}

/** What every kind of invitation's answered event says. */
interface AnsweredInvitation {
  readonly invitationId: string;
  readonly inviterId: string;
  readonly actor: NotificationPerson;
  readonly answer: 'accepted' | 'rejected' | 'deleted';
}

/**
 * What differs between a project's invitation and a workspace's: the rest of their notifications
 * is made alike, by invitationKindProducers.
 */
export interface InvitationKind<Sent extends SentInvitation, Answered extends AnsweredInvitation> {
  /**
   * Names the producers (`<name>-invitation-sent`, `<name>-invitation-answered`: durable consumer
   * names, so they never change) and the answer notifications (`<name>_invitation_accepted`, ...).
   */
  readonly name: string;
  readonly sent: EventSubject<Sent>;
  readonly answered: EventSubject<Answered>;
  /** The invitee's notification, which carries the secret that answering needs. */
  readonly inviteeType: string;
  /** Its key: one notification per invitation, whoever receives it. */
  inviteeKey(invitationId: string): string;
  /** Where the invitation is to, as the invitee's notification says it (after `from_user`). */
  place(invitation: Sent): Readonly<Record<string, unknown>>;
  /** An invitation to an address without an account: no notification; the event comes again when one is created. */
  withoutAccount(invitation: Sent, tx: Tx): Promise<void>;
  /** Who is told that an invitation was accepted or rejected (its actor is left out). */
  answerReceivers(answer: Answered): readonly string[];
  /** The key of a receiver's answer notification (`type` is `<name>_invitation_<answer>`). */
  answerKey(type: string, answer: Answered, receiver: string): string;
  /** What an answer notification says besides `from_user`. */
  answerData(answer: Answered): Readonly<Record<string, unknown>>;
}

/**
 * Invitations (sync-interface §6), whatever they are to. The invitee's notification carries the
 * secret that accepting and rejecting need; sending the invitation again (a new secret) refreshes
 * that notification, unread again, instead of adding one. An accepted or rejected invitation tells
 * its receivers and moves the invitee's notification's `state`; a deleted one deletes it.
 */
export function invitationKindProducers<Sent extends SentInvitation, Answered extends AnsweredInvitation>(
  register: RegisterProducer,
  notifications: LiveNotificationRepository,
  kind: InvitationKind<Sent, Answered>,
): void {
  register(`${kind.name}-invitation-sent`, kind.sent, async (invitation, tx) => {
    if (invitation.inviteeId === null) {
      await kind.withoutAccount(invitation, tx);
      return [];
    }
    if (invitation.inviteeId === invitation.inviter.id) return [];
    return notifications.upsert(tx.manager, {
      userId: invitation.inviteeId,
      key: kind.inviteeKey(invitation.invitationId),
      type: kind.inviteeType,
      fromUid: invitation.inviter.id,
      data: {
        from_user: invitation.inviter,
        ...kind.place(invitation),
        invitation_id: invitation.invitationId,
        invitation_secret: invitation.invitationSecret,
        state: 'invited',
      },
    });
  });

  register(`${kind.name}-invitation-answered`, kind.answered, async (answer, tx) => {
    const invitee = kind.inviteeKey(answer.invitationId);
    if (answer.answer === 'deleted') return notifications.markDeleted(tx.manager, invitee);
    const type = `${kind.name}_invitation_${answer.answer}`;
    const told = await notifications.insert(
      tx.manager,
      draftsFor(kind.answerReceivers(answer), answer.actor.id, (receiver) => ({
        key: kind.answerKey(type, answer, receiver),
        type,
        fromUid: answer.actor.id,
        data: { from_user: answer.actor, ...kind.answerData(answer) },
      })),
    );
    return [...told, ...(await notifications.setState(tx.manager, invitee, answer.answer))];
  });
}
