import { type EventEnvelope, envelopeWithPayloadText } from '@doable/contracts-common';
import { contextFromTraceparent, currentTraceparent, inSpan, type Logger, outsideRequest, SpanKind } from '@doable/shared-logging';
import type { DataSource } from 'typeorm';
import { pruneMessagingTables } from './messaging-retention';

/** What became of one event handed to publishAll (the event bus's EventOutcome). */
export type PublishOutcome = { readonly done: true } | { readonly done: false; readonly error: unknown };

export interface EventPublisher {
  publish(envelope: EventEnvelope): Promise<void>;
  /**
   * The relay's batch at once, when the publisher can (issue #48): the event bus publishes them
   * together, so they reach each consumer together and are handled in one transaction.
   */
  publishAll?(envelopes: readonly EventEnvelope[]): Promise<readonly PublishOutcome[]>;
}

interface OutboxRow {
  id: string;
  event_id: string;
  subject: string;
  /** The payload's JSON text, as PostgreSQL writes the jsonb: passed on as it is (envelopeWithPayloadText). */
  payload: string;
  correlation_id: string | null;
  trace_parent: string | null;
  occurred_at: Date;
}

const BATCH = 100;
const CLAIM_SECONDS = 30;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Publishes committed outbox rows. Rows are claimed with one statement (SKIP LOCKED, a lease
 * rather than a held lock), published, then marked, so no transaction is open during the
 * network call and several replicas can relay side by side. A crash between publishing and
 * marking re-publishes after the lease; the event id de-duplicates it downstream.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private lastPrune = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly publisher: EventPublisher,
    private readonly logger: Logger,
    private readonly pollMs = 1_000,
  ) {}

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  /**
   * Relay now (called after a commit that wrote events) instead of waiting for the next poll.
   * Outside the committing request's context: the passes and timers started here serve everyone.
   */
  nudge(): void {
    outsideRequest(() => this.relayNow());
  }

  private relayNow(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.drain()
      .then(() => this.pruneNowAndThen())
      .catch((err: unknown) => this.logger.warn({ err }, 'outbox relay pass failed; retrying'))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), this.pollMs);
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Housekeeping rides on the relay's timer: once an hour, expired messaging rows go. */
  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const pruned = await pruneMessagingTables(this.dataSource, this.schema);
    if (pruned.outbox + pruned.processedEvents > 0) this.logger.info({ pruned }, 'expired messaging rows removed');
  }

  /** Publishes until nothing is left; returns how many events went out. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await this.claim();
      if (rows.length === 0) return total;
      const published: string[] = [];
      try {
        if (this.publisher.publishAll) {
          published.push(...(await this.publishAll(rows, this.publisher.publishAll.bind(this.publisher))));
        } else {
          for (const row of rows) {
            await this.publish(row);
            published.push(row.id);
          }
        }
      } finally {
        if (published.length > 0) {
          await this.dataSource.query(`UPDATE "${this.schema}".outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [published]);
        }
        // Rows not published are released at once rather than after the lease.
        const failed = rows.filter((row) => !published.includes(row.id)).map((row) => row.id);
        if (failed.length > 0) {
          await this.dataSource.query(`UPDATE "${this.schema}".outbox SET claimed_until = NULL WHERE id = ANY($1::bigint[])`, [failed]);
        }
      }
      total += published.length;
      // As when a publish throws: the pass ends, and the rest waits for the next one (a consumer
      // that keeps failing an event is not asked again at once, in a loop).
      if (published.length < rows.length) throw new Error(`${rows.length - published.length} of ${rows.length} events not published`);
    }
  }

  /**
   * One event out, as a producer span in the trace of the work that wrote it (its stored
   * traceparent); the envelope carries the span's own context, so consumers are its children.
   */
  private publish(row: OutboxRow): Promise<void> {
    return inSpan(`${row.subject} publish`, publishSpan(row), () => this.publisher.publish(envelopeOf(row, currentTraceparent())));
  }

  /**
   * The rows at once, each still its own producer span (ended when its own outcome is known);
   * the ids of those published, in order.
   */
  private async publishAll(rows: readonly OutboxRow[], publishAll: NonNullable<EventPublisher['publishAll']>): Promise<string[]> {
    const envelopes: EventEnvelope[] = [];
    let tell!: (outcomes: readonly PublishOutcome[]) => void;
    const told = new Promise<readonly PublishOutcome[]>((resolve) => (tell = resolve));
    // inSpan runs its work at once, up to its first await: each envelope is made inside its span.
    const spans = rows.map((row, index) =>
      inSpan(`${row.subject} publish`, publishSpan(row), async () => {
        envelopes[index] = envelopeOf(row, currentTraceparent());
        const outcome = (await told)[index];
        if (!outcome?.done) throw outcome ? outcome.error : new Error('the publisher gave no outcome for this event');
      }),
    );
    try {
      tell(await publishAll(envelopes));
    } catch (error) {
      tell(rows.map(() => ({ done: false, error })));
    }
    const settled = await Promise.allSettled(spans);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) this.logger.warn({ err: failed.reason as unknown }, 'outbox relay: an event was not published; it is published again later');
    return rows.flatMap((row, index) => (settled[index].status === 'fulfilled' ? [row.id] : []));
  }

  private async claim(): Promise<OutboxRow[]> {
    // TypeORM answers UPDATE ... RETURNING with [rows, affected].
    const [rows] = await this.dataSource.query<[OutboxRow[], number]>(
      `UPDATE "${this.schema}".outbox SET claimed_until = now() + make_interval(secs => $1)
        WHERE id IN (SELECT id FROM "${this.schema}".outbox
                      WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
                      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, event_id, subject, payload::text AS payload, correlation_id, trace_parent, occurred_at`,
      [CLAIM_SECONDS, BATCH],
    );
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }
}

function publishSpan(row: OutboxRow) {
  const attributes = { 'messaging.operation.type': 'publish', 'messaging.destination.name': row.subject, 'messaging.message.id': row.event_id };
  return { kind: SpanKind.PRODUCER, parent: contextFromTraceparent(row.trace_parent), attributes };
}

function envelopeOf(row: OutboxRow, traceparent: string | undefined): EventEnvelope {
  return envelopeWithPayloadText(
    {
      id: row.event_id,
      subject: row.subject,
      occurredAt: new Date(row.occurred_at).toISOString(),
      ...(row.correlation_id ? { correlationId: row.correlation_id } : {}),
      ...(traceparent ? { traceparent } : {}),
    },
    row.payload,
  );
}
