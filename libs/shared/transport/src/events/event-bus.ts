import type { EventEnvelope } from '@doable/contracts-common';

export type Unsubscribe = () => Promise<void>;

/**
 * What became of one event of a batch: done (handled now, or found handled before), or not,
 * with the error that undid it, to be delivered again later.
 */
export type EventOutcome = { readonly done: true } | { readonly done: false; readonly error: unknown };

export const EVENT_DONE: EventOutcome = { done: true };

/** A durable, shared subscription: replicas of one consumer split the work; events wait while it is down. */
export interface DurableConsumer {
  /** Stable name of the consumer, e.g. `sync.user-created`. */
  readonly durable: string;
  readonly subject: string;
  /**
   * Several deliveries at once, in the order they came (issue #48: one transaction for a batch,
   * not one per event). Resolves once what it did is committed, with one outcome per envelope,
   * in the same order; the bus acknowledges the done ones and delivers the others again. A
   * rejection means none is done. Delivery is at least once: an event may come again, in this
   * batch's place or a later one, and the consumer must find it handled.
   */
  handle(envelopes: readonly EventEnvelope[]): Promise<readonly EventOutcome[]>;
}

/**
 * Events between services. Producers never call `publish` directly: they write to their
 * transactional outbox and the relay publishes (see @doable/shared-database).
 */
export interface EventBus {
  /** Resolves once the event is stored durably (JetStream ack) or handled by every in-process consumer. */
  publish(envelope: EventEnvelope): Promise<void>;
  /**
   * Several events, in order (the outbox relay's batch): one outcome each, done once it is
   * stored durably or handled by every in-process consumer. An event not done stays in the
   * outbox and is published again later.
   */
  publishAll(envelopes: readonly EventEnvelope[]): Promise<readonly EventOutcome[]>;
  consume(consumer: DurableConsumer): Promise<Unsubscribe>;
  /** Fan-out to every live instance, not durable: for cache invalidation. */
  broadcast(subject: string, handler: (envelope: EventEnvelope) => Promise<void> | void): Promise<Unsubscribe>;
  /** False while the broker connection is down (readiness). */
  isConnected(): boolean;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');

/**
 * A consumer's batch handled one event at a time by `handle`, each failure its own outcome: for
 * consumers without a transaction to share (tests, tools).
 */
export function oneByOne(handle: (envelope: EventEnvelope) => Promise<void>): DurableConsumer['handle'] {
  return async (envelopes) => {
    const outcomes: EventOutcome[] = [];
    for (const envelope of envelopes) {
      try {
        await handle(envelope);
        outcomes.push(EVENT_DONE);
      } catch (error) {
        outcomes.push({ done: false, error });
      }
    }
    return outcomes;
  };
}
