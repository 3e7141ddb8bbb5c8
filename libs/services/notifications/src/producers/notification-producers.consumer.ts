import { NotificationsEvents } from '@doable/contracts-notifications';
import { EventConsumers } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { INVITATION_MAILER, type InvitationMailer } from '../mail/invitation-mailer';
import { CollaborationMailer } from '../mail/collaboration-mailer';
import { LiveNotificationRepository } from '../store/live-notification.repository';
import { DraftRecorder } from './draft-recorder';
import { collaboratorProducers } from './collaborator.producers';
import { goalProducers } from './goal.producers';
import { invitationProducers } from './invitation.producers';
import { itemProducers } from './item.producers';
import { noteProducers } from './note.producers';
import type { RegisterProducer } from './notification-producer';
import { workspacePlanProducers } from './workspace-plan.producers';
import { workspaceProducers } from './workspace.producers';

/**
 * Live notifications come from domain events (sync's SyncEvents), never from the command that
 * caused them. Each producer is a durable consumer: EventConsumers records the event id in the
 * same transaction (a redelivered event is skipped), and every notification key is derived from
 * the event, so even a second event for the same fact makes no second notification.
 * Whoever's notifications changed is named in NotificationsEvents.delivered, from this
 * transaction's outbox: sync raises their high-water mark, so their next incremental sync asks
 * for notifications.
 */
@Injectable()
export class NotificationProducersConsumer {
  constructor(
    consumers: EventConsumers,
    live: LiveNotificationRepository,
    @Inject(INVITATION_MAILER) mailer: InvitationMailer,
    // Only its `mail` is used: the producer specs that test no mail pass one that mails nothing.
    @Inject(CollaborationMailer) collaborationMailer: Pick<CollaborationMailer, 'mail'>,
  ) {
    const recorder = new DraftRecorder(live);
    const notifications = recorder.repository;
    const register: RegisterProducer = (name, event, produce) =>
      consumers.on(name, event, async (payload, tx, envelope) => {
        const userIds = [...new Set(await produce(payload, tx, envelope.id))].sort();
        // The receivers whose notification settings say email get it mailed too, in this transaction.
        await collaborationMailer.mail(tx, recorder.take(tx.manager));
        if (userIds.length > 0) await tx.emit(NotificationsEvents.delivered, { userIds });
      });
    invitationProducers(register, notifications, mailer);
    collaboratorProducers(register, notifications);
    itemProducers(register, notifications);
    noteProducers(register, notifications);
    goalProducers(register, notifications);
    workspaceProducers(register, notifications, mailer);
    workspacePlanProducers(register, notifications);
  }
}
