import { NotificationsEvents } from '@doable/contracts-notifications';
import { EventConsumers } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { INVITATION_MAILER, type InvitationMailer } from '../mail/invitation-mailer';
import { LiveNotificationRepository } from '../store/live-notification.repository';
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
  constructor(consumers: EventConsumers, notifications: LiveNotificationRepository, @Inject(INVITATION_MAILER) mailer: InvitationMailer) {
    const register: RegisterProducer = (name, event, produce) =>
      consumers.on(name, event, async (payload, tx, envelope) => {
        const userIds = [...new Set(await produce(payload, tx, envelope.id))].sort();
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
