import { SyncEvents } from '@doable/contracts-sync';
import { EventConsumers } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { MailOutbox } from './mail-outbox';
import { MailPreferencesRepository } from './mail-preferences.repository';
import { MAIL_SETTINGS, type MailSettings } from './mail-settings';

/**
 * Mails the daily digest sync found due. Sync decided who is due and what is listed; the address
 * is this service's copy of the settings (mail_preferences), which also has the last word on
 * whether the digest is on: the event can have been written just before the user turned it off.
 * A user with no copy (never changed a setting, so the digest, off by default, never on) gets
 * nothing. Keyed by user and local day, so a redelivered event queues no second mail.
 */
@Injectable()
export class DailyDigestMailer {
  constructor(consumers: EventConsumers, preferences: MailPreferencesRepository, outbox: MailOutbox, @Inject(MAIL_SETTINGS) settings: MailSettings) {
    consumers.on('mail-daily-digest', SyncEvents.dailyDigestDue, async (due, tx) => {
      const [recipient] = await preferences.recipients(tx.manager, [due.userId], 'daily_digest');
      if (!recipient) return;
      await outbox.queue(tx, {
        key: `digest:${due.userId}:${due.localDate}`,
        kind: 'daily-digest',
        to: recipient.email,
        lang: recipient.lang,
        data: { localDate: due.localDate, tasks: due.tasks, total: due.total, link: `${settings.publicUrl}/app/#/today` },
      });
    });
  }
}
