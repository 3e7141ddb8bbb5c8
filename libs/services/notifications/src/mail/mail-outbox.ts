import type { Tx } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { MailQueueRepository } from './mail-queue.repository';
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
 * How consumers mail: rendered now, queued in the consumer's transaction (so the mail exists
 * exactly when the event was handled), sent by the worker, which is woken once that commits.
 */
@Injectable()
export class MailOutbox {
  private readonly repository = new MailQueueRepository();

  constructor(private readonly worker: MailWorker) {}

  async queue<K extends MailKind>(tx: Tx, mail: QueuedMail<K>): Promise<boolean> {
    const queued = await this.repository.enqueue(tx.manager, { key: mail.key, kind: mail.kind, recipient: mail.to, body: renderMail(mail.kind, mail.data, mail.lang) });
    // After the commit, not inside the transaction: a look started before it would not see the row.
    if (queued) tx.afterCommit(() => this.worker.wake());
    return queued;
  }
}
