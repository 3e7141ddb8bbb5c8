import type { EventEnvelope } from '@doable/contracts-common';

export type Unsubscribe = () => Promise<void>;

/** A durable, shared subscription: replicas of one consumer split the work; events wait while it is down. */
export interface DurableConsumer {
  /** Stable name of the consumer, e.g. `sync.user-created`. */
  readonly durable: string;
  readonly subject: string;
  handle(envelope: EventEnvelope): Promise<void>;
}

/**
 * Events between services. Producers never call `publish` directly: they write to their
 * transactional outbox and the relay publishes (see @doable/shared-database).
 */
export interface EventBus {
  /** Resolves once the event is stored durably (JetStream ack) or handled by every in-process consumer. */
  publish(envelope: EventEnvelope): Promise<void>;
  consume(consumer: DurableConsumer): Promise<Unsubscribe>;
  /** Fan-out to every live instance, not durable: for cache invalidation. */
  broadcast(subject: string, handler: (envelope: EventEnvelope) => Promise<void> | void): Promise<Unsubscribe>;
  /** False while the broker connection is down (readiness). */
  isConnected(): boolean;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');
