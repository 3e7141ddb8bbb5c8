import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RenderedMail } from './mail-templates';

/** A mail claimed for one send. */
export interface ClaimedMail {
  readonly id: string;
  readonly kind: string;
  readonly recipient: string;
  readonly body: RenderedMail;
  /** This send's number, from 1. */
  readonly attempt: number;
}

/** The longest wait between two sends of one mail, whatever the backoff reaches. */
const MAX_BACKOFF_SECONDS = 24 * 60 * 60;

/** notifications.mail_queue (migration 1764090000400): queued in consumers' transactions, sent by MailWorker. */
@Injectable()
export class MailQueueRepository {
  /**
   * Queues a mail under its key, in the caller's transaction. A key already queued (the event
   * delivered again, or the same fact announced twice) queues nothing. Answers whether it queued.
   */
  async enqueue(manager: EntityManager, mail: { key: string; kind: string; recipient: string; body: RenderedMail }): Promise<boolean> {
    const rows = await manager.query<Array<{ id: string }>>(
      `INSERT INTO notifications.mail_queue (mail_key, kind, recipient, body) VALUES ($1, $2, $3, $4)
       ON CONFLICT (mail_key) DO NOTHING RETURNING id::text AS id`,
      [mail.key, mail.kind, mail.recipient, JSON.stringify(mail.body)],
    );
    return rows.length > 0;
  }

  /**
   * How many mails of these kinds were queued to the address in the last `windowSeconds`, taken
   * under a transaction-long lock on the address: two consumers (replicas) queueing to one
   * address count one after the other, so the count and the queueing that follows it hold.
   */
  async countRecentTo(manager: EntityManager, recipient: string, kinds: readonly string[], windowSeconds: number): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('mail-recipient:' || lower($1), 0))`, [recipient]);
    const [row] = await manager.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM notifications.mail_queue
        WHERE lower(recipient) = lower($1) AND kind = ANY($2::text[]) AND created_at > now() - make_interval(secs => $3)`,
      [recipient, kinds, windowSeconds],
    );
    return row.count;
  }

  /**
   * Claims due mails for one send each (SKIP LOCKED: replicas share the work). The claim pushes
   * `next_attempt_at` past a lease, so a worker that dies mid-send leaves the mail due again later
   * rather than lost (a mail may then be sent twice: SMTP has no idempotent submission).
   */
  async claimDue(manager: EntityManager, limit: number, leaseSeconds: number): Promise<ClaimedMail[]> {
    const [rows] = await manager.query<[Array<{ id: string; kind: string; recipient: string; body: RenderedMail; attempts: number }>, number]>(
      `UPDATE notifications.mail_queue SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
        WHERE id IN (SELECT id FROM notifications.mail_queue WHERE state = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id::text AS id, kind, recipient, body, attempts`,
      [limit, leaseSeconds],
    );
    return rows.map((row) => ({ id: row.id, kind: row.kind, recipient: row.recipient, body: row.body, attempt: row.attempts }));
  }

  /** Sent: the body (which may hold a secret link) is cleared; the row stays as the key's record. */
  async sent(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE notifications.mail_queue SET state = 'sent', body = NULL, last_error = NULL, finished_at = now() WHERE id = $1 AND state = 'pending'`, [id]);
  }

  /**
   * A failed send: due again after retrySeconds × 2^(attempt − 1) (capped at a day), or given up
   * after `maxRetries` retries, its body cleared. Answers whether it was given up.
   */
  async failed(manager: EntityManager, id: string, error: string, retrySeconds: number, maxRetries: number): Promise<boolean> {
    const [rows] = await manager.query<[Array<{ state: string }>, number]>(
      `UPDATE notifications.mail_queue
          SET last_error = left($2, 500),
              state = CASE WHEN attempts > $4 THEN 'failed' ELSE 'pending' END,
              body = CASE WHEN attempts > $4 THEN NULL ELSE body END,
              finished_at = CASE WHEN attempts > $4 THEN now() END,
              next_attempt_at = now() + make_interval(secs => least($3::float8 * power(2, attempts - 1), $5))
        WHERE id = $1 AND state = 'pending'
        RETURNING state`,
      [id, error, retrySeconds, maxRetries, MAX_BACKOFF_SECONDS],
    );
    return rows[0]?.state === 'failed';
  }

  /** Mails waiting to be sent (the queue depth metric). */
  async depth(manager: EntityManager): Promise<number> {
    const rows = await manager.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM notifications.mail_queue WHERE state = 'pending'`);
    return rows[0]?.count ?? 0;
  }
}
