import type { EventEnvelope, EventSubject } from '@doable/contracts-common';
import { claimEvent } from '@doable/shared-database';
import { contextFromTraceparent, inSpan, LOGGER, type Logger, SpanKind, withCorrelationId } from '@doable/shared-logging';
import { EVENT_BUS, type EventBus, type Unsubscribe } from '@doable/shared-transport';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Registry } from 'prom-client';
import { consumerMetrics } from '../metrics/messaging-metrics';
import { Database, type Tx } from '../service/database';
import { METRICS_REGISTRY, SERVICE_DEFINITION } from '../service/tokens';
import type { ServiceDefinition } from '../service/service-definition';

interface Registration {
  readonly name: string;
  readonly event: EventSubject<unknown>;
  readonly handler: (payload: unknown, tx: Tx, envelope: EventEnvelope) => Promise<void>;
}

/**
 * Durable event consumers of one service. Each handler runs in a transaction that first
 * records the event id, so a redelivered event is skipped: consumers are idempotent by
 * construction. Payloads are validated against the event's schema before the handler runs.
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
  on<P>(name: string, event: EventSubject<P>, handler: (payload: P, tx: Tx, envelope: EventEnvelope<P>) => Promise<void>): void {
    this.registrations.push({ name, event: event, handler: handler as Registration['handler'] });
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
          handle: (envelope) => withCorrelationId(envelope.correlationId, () => this.handle(registration, durable, envelope)),
        }),
      );
    }
  }

  /**
   * One delivery, as a consumer span whose parent is the relay's publish span (the envelope's
   * traceparent): the trace of a command reaches every consumer of the events it wrote.
   */
  private handle(registration: Registration, durable: string, envelope: EventEnvelope): Promise<void> {
    const database = this.database!;
    const parent = contextFromTraceparent(envelope.traceparent);
    const attributes = { 'messaging.operation.type': 'process', 'messaging.destination.name': envelope.subject, 'messaging.consumer.group.name': durable, 'messaging.message.id': envelope.id };
    return inSpan(`${registration.event.name} process ${durable}`, { kind: SpanKind.CONSUMER, parent, attributes }, async (span) => {
      try {
        const payload = registration.event.payload.parse(envelope.payload);
        await database.transaction(async (tx) => {
          if (!(await claimEvent(tx.manager, database.schema, durable, envelope.id))) {
            span.setAttribute('doable.duplicate', true);
            return;
          }
          await registration.handler(payload, tx, { ...envelope, payload });
        });
      } catch (err) {
        this.metrics.failures.inc({ durable });
        throw err;
      }
      // From the outbox commit to this commit: the lag an operator alerts on (a redelivery counts from the first occurrence).
      this.metrics.lag.observe({ durable }, Math.max(0, (Date.now() - Date.parse(envelope.occurredAt)) / 1000));
      this.logger.debug({ durable, eventId: envelope.id }, 'event handled');
    });
  }

  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) await stop();
  }
}
