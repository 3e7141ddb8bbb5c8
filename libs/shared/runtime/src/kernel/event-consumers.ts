import type { EventEnvelope, EventSubject } from '@doable/contracts-common';
import { claimEvent } from '@doable/shared-database';
import { contextFromTraceparent, inSpan, LOGGER, type Logger, SpanKind, withCorrelationId } from '@doable/shared-logging';
import { EVENT_BUS, EVENT_DONE, type EventBus, type EventOutcome, type Unsubscribe } from '@doable/shared-transport';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Registry } from 'prom-client';
import type { EntityManager } from 'typeorm';
import { consumerMetrics } from '../metrics/messaging-metrics';
import { Database, type Tx } from '../service/database';
import { METRICS_REGISTRY, SERVICE_DEFINITION } from '../service/tokens';
import type { ServiceDefinition } from '../service/service-definition';

interface Registration {
  readonly name: string;
  readonly event: EventSubject<unknown>;
  readonly handler: (payload: unknown, tx: Tx, envelope: EventEnvelope) => Promise<void>;
  readonly concerns?: (payload: unknown, read: EntityManager) => boolean | Promise<boolean>;
}

/** How a consumer takes its events, beyond its handler. */
export interface ConsumerOptions<P> {
  /**
   * Whether the handler would do anything with this (checked) payload, decided before any
   * transaction: from the payload alone, or with reads (`read`, outside any transaction). One
   * it would not is acknowledged without a transaction: no claim, no COMMIT (a WAL flush),
   * nothing to undo, and so nothing to do twice. Uploads takes every request's v2 object event
   * for the few comments with files, webhooks for the users who authorised an app: 100 tasks
   * added by a user without either concern neither (issue #48, S2). Decided a moment before the
   * handler would have run, so the same as the handler deciding it; a check that throws fails
   * the event alone, which comes again.
   */
  readonly concerns?: (payload: P, read: EntityManager) => boolean | Promise<boolean>;
}

/** An event of a batch whose payload is valid, and where it stands in the batch. */
interface Parsed {
  readonly index: number;
  readonly envelope: EventEnvelope;
  readonly payload: unknown;
}

/**
 * Durable event consumers of one service. The bus hands each consumer its events in batches
 * (issue #48), and a batch is one transaction (Database.batch): one COMMIT for all its events,
 * where there was one per event. Each event is a unit of that transaction that first records
 * the event id (a redelivered event is skipped: consumers are idempotent by construction), then
 * runs the handler; an event whose handler throws is undone alone (a savepoint), and only it is
 * delivered again. The bus acknowledges the events after the COMMIT. Payloads are validated
 * against the event's schema before the transaction; one that does not parse fails alone.
 */
@Injectable()
export class EventConsumers {
  private readonly registrations: Registration[] = [];
  private readonly stops: Unsubscribe[] = [];
  private readonly metrics: ReturnType<typeof consumerMetrics>;

  constructor(
    @Inject(SERVICE_DEFINITION) private readonly definition: ServiceDefinition,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly database?: Database,
    // Optional so a spec can build consumers without one; the kernel always provides it.
    @Optional() @Inject(METRICS_REGISTRY) registry: Registry = new Registry(),
  ) {
    this.metrics = consumerMetrics(registry);
  }

  /** Call from a feature provider's constructor or onModuleInit; consumption starts with the service. */
  on<P>(name: string, event: EventSubject<P>, handler: (payload: P, tx: Tx, envelope: EventEnvelope<P>) => Promise<void>, options: ConsumerOptions<P> = {}): void {
    this.registrations.push({ name, event: event, handler: handler as Registration['handler'], concerns: options.concerns as Registration['concerns'] });
  }

  /** How many consumers the service registered (a durable each). */
  get count(): number {
    return this.registrations.length;
  }

  async start(): Promise<void> {
    const database = this.database;
    if (this.registrations.length > 0 && !database) throw new Error(`${this.definition.name} consumes events but owns no database`);
    for (const registration of this.registrations) {
      const durable = `${this.definition.name}.${registration.name}`;
      this.stops.push(
        await this.bus.consume({
          durable,
          subject: registration.event.name,
          handle: (envelopes) => this.handle(registration, durable, envelopes),
        }),
      );
    }
  }

  /** One batch: its valid events in one transaction, an outcome per event, in order. */
  private async handle(registration: Registration, durable: string, envelopes: readonly EventEnvelope[]): Promise<EventOutcome[]> {
    const database = this.database!;
    const outcomes: EventOutcome[] = [];
    const valid: Parsed[] = [];
    envelopes.forEach((envelope, index) => {
      try {
        valid.push({ index, envelope, payload: registration.event.payload.parse(envelope.payload) });
      } catch (error) {
        outcomes[index] = { done: false, error };
      }
    });
    const concerned = await this.concerning(registration, valid, outcomes);
    if (concerned.length > 0) {
      try {
        const attempts = await database.batch(concerned, (event, tx) => withCorrelationId(event.envelope.correlationId, () => this.apply(registration, durable, event, tx)));
        attempts.forEach((attempt, position) => (outcomes[concerned[position].index] = attempt.ok ? EVENT_DONE : { done: false, error: attempt.error }));
      } catch (error) {
        // The transaction itself failed (its COMMIT, a lost connection): nothing of the batch holds.
        for (const event of concerned) outcomes[event.index] = { done: false, error };
      }
    }
    const now = Date.now();
    envelopes.forEach((envelope, index) => {
      if (!outcomes[index].done) {
        this.metrics.failures.inc({ durable });
        return;
      }
      // From the outbox commit to this commit: the lag an operator alerts on (a redelivery counts from the first occurrence).
      this.metrics.lag.observe({ durable }, Math.max(0, (now - Date.parse(envelope.occurredAt)) / 1000));
    });
    this.logger.debug({ durable, events: envelopes.length, handled: outcomes.filter((outcome) => outcome.done).length }, 'event batch handled');
    return outcomes;
  }

  /**
   * The events that concern the consumer; the others are done (or failed, where the check threw)
   * without a transaction. One check at a time: a batch caught up after a stop holds up to 100,
   * and their reads must not take the whole pool from the service's requests.
   */
  private async concerning(registration: Registration, events: readonly Parsed[], outcomes: EventOutcome[]): Promise<Parsed[]> {
    const concerns = registration.concerns;
    if (!concerns) return [...events];
    const read = this.database!.dataSource.manager;
    const concerned: Parsed[] = [];
    for (const event of events) {
      try {
        if (await concerns(event.payload, read)) concerned.push(event);
        else outcomes[event.index] = EVENT_DONE;
      } catch (error) {
        outcomes[event.index] = { done: false, error };
      }
    }
    return concerned;
  }

  /**
   * One event, as a consumer span whose parent is the relay's publish span (the envelope's
   * traceparent): the trace of a command reaches every consumer of the events it wrote.
   */
  private apply(registration: Registration, durable: string, { envelope, payload }: Parsed, tx: Tx): Promise<void> {
    const database = this.database!;
    const parent = contextFromTraceparent(envelope.traceparent);
    const attributes = { 'messaging.operation.type': 'process', 'messaging.destination.name': envelope.subject, 'messaging.consumer.group.name': durable, 'messaging.message.id': envelope.id };
    return inSpan(`${registration.event.name} process ${durable}`, { kind: SpanKind.CONSUMER, parent, attributes }, async (span) => {
      if (!(await claimEvent(tx.manager, database.schema, durable, envelope.id))) {
        span.setAttribute('doable.duplicate', true);
        return;
      }
      await registration.handler(payload, tx, { ...envelope, payload });
    });
  }

  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) await stop();
  }
}
