import { AuthEvents } from '@doable/contracts-auth';
import { taskPageUrl } from '@doable/contracts-rest';
import { SyncEvents } from '@doable/contracts-sync';
import { EventConsumers, type Tx } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import type { NotificationDraft } from '../store/live-notification.repository';
import { collaborationMailActions, collaborationMailText, isMailableNotification } from './collaboration-mail-text';
import { MailOutbox } from './mail-outbox';
import { MailPreferencesRepository } from './mail-preferences.repository';
import { MAIL_SETTINGS, type MailSettings } from './mail-settings';

/**
 * Mails the collaboration notifications (item assigned, comment added, invitations, ...) whose
 * receivers' notification settings say email. Those settings are sync's; this service keeps a
 * copy from sync's notification-settings-changed event (and auth's email-changed for the
 * address), so it never reads sync's tables nor waits on sync inside its own transaction.
 * Called with the drafts a producer made, in the consumer's transaction: a mail is keyed by its
 * notification's key (unique per receiver and fact), so a redelivered event queues none again.
 */
@Injectable()
export class CollaborationMailer {
  constructor(
    consumers: EventConsumers,
    private readonly preferences: MailPreferencesRepository,
    private readonly outbox: MailOutbox,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
  ) {
    consumers.on('mail-preferences', SyncEvents.notificationSettingsChanged, (changed, tx) => this.preferences.save(tx.manager, changed));
    consumers.on('mail-preferences-address', AuthEvents.emailChanged, (changed, tx) => this.preferences.readdress(tx.manager, changed.userId, changed.email));
  }

  async mail(tx: Tx, drafts: readonly NotificationDraft[]): Promise<void> {
    const mailable = drafts.filter((draft) => isMailableNotification(draft.type));
    for (const type of new Set(mailable.map((draft) => draft.type))) {
      const ofType = mailable.filter((draft) => draft.type === type);
      const byUser = new Map((await this.preferences.recipients(tx.manager, ofType.map((draft) => draft.userId), type)).map((recipient) => [recipient.userId, recipient]));
      for (const draft of ofType) {
        const recipient = byUser.get(draft.userId);
        const words = recipient && collaborationMailText(type, draft.data, 'A collaborator');
        if (!recipient || !words) continue;
        const itemId = draft.data['item_id'];
        await this.outbox.queue(tx, {
          key: `notification:${draft.key}`,
          kind: 'collaboration',
          to: recipient.email,
          lang: recipient.lang,
          data: {
            ...words,
            link: typeof itemId === 'string' ? taskPageUrl(this.settings.publicUrl, itemId) : `${this.settings.publicUrl}/app`,
            actions: collaborationMailActions(type, draft.data, this.settings.publicUrl),
          },
        });
      }
    }
  }
}
