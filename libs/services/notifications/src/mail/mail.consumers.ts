import { AuthEvents } from '@doable/contracts-auth';
import { taskPageUrl } from '@doable/contracts-rest';
import { SyncEvents } from '@doable/contracts-sync';
import { EventConsumers } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { MailOutbox } from './mail-outbox';
import { MAIL_SETTINGS, type MailSettings } from './mail-settings';

/**
 * The mails made straight from others' events (invitations are mailed by the share-invitation
 * producer, see InvitationMailer). Each is a durable consumer: EventConsumers claims the event id
 * in the same transaction that queues the mail, and every mail key is derived from the event, so
 * a redelivered event never mails twice.
 */
@Injectable()
export class MailConsumers {
  constructor(consumers: EventConsumers, outbox: MailOutbox, @Inject(MAIL_SETTINGS) settings: MailSettings) {
    consumers.on('mail-password-reset', AuthEvents.passwordResetRequested, async (request, tx, envelope) => {
      await outbox.queue(tx, {
        key: `password-reset:${envelope.id}`,
        kind: 'password-reset',
        to: request.email,
        lang: request.lang,
        data: { fullName: request.fullName, link: request.link, expiresAt: request.expiresAt },
      });
    });
    consumers.on('mail-email-change', AuthEvents.emailChangeRequested, async (request, tx, envelope) => {
      await outbox.queue(tx, {
        key: `email-change:${envelope.id}`,
        kind: 'email-change',
        to: request.email,
        lang: request.lang,
        data: { fullName: request.fullName, link: request.link, expiresAt: request.expiresAt, previousEmail: request.previousEmail },
      });
      // The address being left is told (issue #44): a change its owner did not ask for shows there.
      await outbox.queue(tx, {
        key: `email-change-notice:${envelope.id}`,
        kind: 'email-change-notice',
        to: request.previousEmail,
        lang: request.lang,
        data: { fullName: request.fullName, newEmail: request.email },
      });
    });
    consumers.on('mail-address-confirmation', AuthEvents.addressConfirmationRequested, async (request, tx, envelope) => {
      await outbox.queue(tx, {
        key: `address-confirmation:${envelope.id}`,
        kind: 'address-confirmation',
        to: request.email,
        lang: request.lang,
        data: { fullName: request.fullName, link: request.link, expiresAt: request.expiresAt, reason: request.reason, ...(request.providerName ? { providerName: request.providerName } : {}) },
      });
    });
    // Sync says which fired reminders are to be mailed (their service is email); once per firing.
    consumers.on('mail-reminders', SyncEvents.reminderFired, async (fired, tx) => {
      if (!fired.mail) return;
      await outbox.queue(tx, {
        key: `reminder:${fired.reminderId}:${fired.dueAt}`,
        kind: 'reminder',
        to: fired.mail.to,
        lang: fired.mail.lang,
        data: { taskContent: fired.mail.taskContent, dueAt: fired.dueAt, link: taskPageUrl(settings.publicUrl, fired.itemId) },
      });
    });
  }
}
