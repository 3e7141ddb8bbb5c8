import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database, METRICS_REGISTRY, PeriodicTask } from '@doable/shared-runtime';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import { type ClaimedMail, MailQueueRepository } from './mail-queue.repository';
import { createMailSender, type MailSender } from './mail-sender';
import { MAIL_SETTINGS, type MailSettings } from './mail-settings';

/** Mails claimed per look, sent concurrently. */
const CLAIM = 10;
/** Longer than one SMTP send can take (the transport's timeouts), so no second replica takes it meanwhile. */
const LEASE_SECONDS = 120;

/**
 * Sends queued mails, outside any transaction: a consumer's transaction only queues (the mail
 * queue), and a slow or failing mail server never holds a lock or an event. Retries a failed
 * send with exponential backoff up to MAIL_MAX_RETRIES; the body is cleared once sent or given
 * up. Woken after each commit that queued a mail; the poll remains for retries coming due,
 * another replica's rows and a wake lost to a crash.
 */
@Injectable()
export class MailWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task: PeriodicTask;
  private readonly sender: MailSender;
  private readonly sent: Counter<'kind'>;
  private readonly failed: Counter<'kind' | 'outcome'>;

  constructor(
    private readonly database: Database,
    private readonly repository: MailQueueRepository,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.sender = createMailSender(settings, logger);
    this.task = new PeriodicTask(() => this.drain(), { intervalMs: settings.pollMs, logger, failure: 'mail queue look failed; retrying at the next look' });
    this.sent = new Counter({ name: 'doable_mail_sent_total', help: 'Mails sent (or written to a file without SMTP), per kind', labelNames: ['kind'], registers: [registry] });
    this.failed = new Counter({
      name: 'doable_mail_failed_total',
      help: 'Failed mail sends per kind: retried later (retry) or given up (given_up)',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    });
    const depth = () => this.repository.depth(this.database.dataSource.manager);
    new Gauge({
      name: 'doable_mail_queue_depth',
      help: 'Mails queued and not yet sent nor given up',
      registers: [registry],
      async collect() {
        this.set(await depth());
      },
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): void {
    this.task.stop();
    this.sender.close();
  }

  /** Mails were just committed on this replica: send them now rather than at the next poll. */
  wake(): void {
    this.task.wake();
  }

  private async drain(): Promise<void> {
    while ((await this.runOnce()) === CLAIM);
  }

  /** One look: claims the due mails and sends each. Answers how many were attempted. */
  async runOnce(): Promise<number> {
    const claimed = await this.repository.claimDue(this.database.dataSource.manager, CLAIM, LEASE_SECONDS);
    await Promise.all(claimed.map((mail) => this.attempt(mail)));
    return claimed.length;
  }

  private async attempt(mail: ClaimedMail): Promise<void> {
    const manager = this.database.dataSource.manager;
    try {
      await this.sender.send({ to: mail.recipient, ...mail.body }, `${mail.kind}-${mail.id}`);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const givenUp = await this.repository.failed(manager, mail.id, error, this.settings.retrySeconds, this.settings.maxRetries);
      this.failed.inc({ kind: mail.kind, outcome: givenUp ? 'given_up' : 'retry' });
      // The id and kind only: the recipient is personal data and the body can hold a secret link.
      this.logger.warn({ mailId: mail.id, kind: mail.kind, attempt: mail.attempt, givenUp, error }, 'mail send failed');
      return;
    }
    await this.repository.sent(manager, mail.id);
    this.sent.inc({ kind: mail.kind });
  }
}
