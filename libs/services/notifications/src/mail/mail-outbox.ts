import { LOGGER, type Logger } from '@doable/shared-logging';
import { METRICS_REGISTRY, type Tx } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import { MailQueueRepository } from './mail-queue.repository';
import { MAIL_SETTINGS, type MailSettings } from './mail-settings';
import { type MailKind, type MailTemplates, renderMail } from './mail-templates';
import { MailWorker } from './mail-worker';

/** One mail to queue: `key` is derived from the event, so the same fact never queues twice. */
export interface QueuedMail<K extends MailKind> {
  readonly key: string;
  readonly kind: K;
  readonly to: string;
  readonly lang: string;
  readonly data: MailTemplates[K];
}

/**
 * The mails someone else can make for an address: invitations (any user can invite any address)
 * and password resets (anyone can type an address). Their count per address is limited, so mail
 * cannot be used to flood an inbox; what a user asked for themselves (reminders, digests, their
 * notification settings' mails, an email change's confirmation) is not.
 */
export const UNSOLICITED_KINDS: readonly MailKind[] = ['share-invitation', 'workspace-invitation', 'password-reset'];

/**
 * How consumers mail: rendered now, queued in the consumer's transaction (so the mail exists
 * exactly when the event was handled), sent by the worker, which is woken once that commits.
 */
@Injectable()
export class MailOutbox {
  private readonly overLimit: Counter<'kind'>;

  constructor(
    private readonly repository: MailQueueRepository,
    private readonly worker: MailWorker,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.overLimit = new Counter({
      name: 'doable_mail_recipient_limited_total',
      help: 'Mails not queued because their address had its window\'s share of unsolicited mail (MAIL_RECIPIENT_LIMIT), per kind',
      labelNames: ['kind'],
      registers: [registry],
    });
  }

  /**
   * Queues the mail, or not: the same key again, or an unsolicited mail to an address that got
   * its window's share already (the invitation itself still waits in the app; a reset can be asked
   * again later). Answers whether it queued.
   */
  async queue<K extends MailKind>(tx: Tx, mail: QueuedMail<K>): Promise<boolean> {
    if (UNSOLICITED_KINDS.includes(mail.kind)) {
      const { limit, windowSeconds } = this.settings.recipientLimit;
      if ((await this.repository.countRecentTo(tx.manager, mail.to, UNSOLICITED_KINDS, windowSeconds)) >= limit) {
        // No address in the log: the count is the metric's, the address is nobody's business here.
        this.logger.info({ kind: mail.kind, limit, windowSeconds }, 'mail not queued: its address had its share of unsolicited mail in the window');
        this.overLimit.inc({ kind: mail.kind });
        return false;
      }
    }
    const queued = await this.repository.enqueue(tx.manager, { key: mail.key, kind: mail.kind, recipient: mail.to, body: renderMail(mail.kind, mail.data, mail.lang) });
    // After the commit, not inside the transaction: a look started before it would not see the row.
    if (queued) tx.afterCommit(() => this.worker.wake());
    return queued;
  }
}
