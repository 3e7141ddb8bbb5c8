import { type EventEnvelope, envelopeText } from '@doable/contracts-common';
import type { InProcessBroker } from '../in-process/in-process-broker';
import { type DurableConsumer, EVENT_DONE, type EventBus, type EventOutcome, type Unsubscribe } from './event-bus';

/**
 * Embedded mode: publishing hands the events to every registered durable consumer of their
 * subject, each consumer its own events of the batch at once (one transaction, issue #48), and
 * resolves only when all have handled them. An event some consumer did not handle stays
 * unpublished in the outbox, so it is retried from there (the consumers that did handle it find
 * it claimed). All consumers register at start-up, before any relay runs.
 */
export class InProcessEventBus implements EventBus {
  private readonly consumers = new Map<string, DurableConsumer>();

  constructor(
    private readonly broker: InProcessBroker,
    private readonly subjectPrefix: string,
  ) {}

  async publish(envelope: EventEnvelope): Promise<void> {
    const [outcome] = await this.publishAll([envelope]);
    if (!outcome.done) throw outcome.error;
  }

  async publishAll(envelopes: readonly EventEnvelope[]): Promise<readonly EventOutcome[]> {
    const raws = envelopes.map(envelopeText);
    const failures = new Map<number, unknown>();
    for (const consumer of this.consumers.values()) {
      const mine = envelopes.flatMap((envelope, index) => (envelope.subject === consumer.subject ? [index] : []));
      if (mine.length === 0) continue;
      let outcomes: readonly EventOutcome[];
      try {
        // Each consumer its own copy, as if it had come over the wire.
        outcomes = await consumer.handle(mine.map((index) => JSON.parse(raws[index]) as EventEnvelope));
      } catch (error) {
        outcomes = mine.map(() => ({ done: false, error }));
      }
      mine.forEach((index, position) => {
        const outcome = outcomes[position] ?? { done: false, error: new Error(`${consumer.durable} gave no outcome for an event`) };
        if (!outcome.done && !failures.has(index)) failures.set(index, outcome.error);
      });
    }
    return envelopes.map((envelope, index) => {
      if (failures.has(index)) return { done: false, error: failures.get(index) };
      this.broker.publish(this.subjectPrefix + envelope.subject, raws[index]);
      return EVENT_DONE;
    });
  }

  consume(consumer: DurableConsumer): Promise<Unsubscribe> {
    this.consumers.set(consumer.durable, consumer);
    return Promise.resolve(() => {
      this.consumers.delete(consumer.durable);
      return Promise.resolve();
    });
  }

  broadcast(subject: string, handler: (envelope: EventEnvelope) => Promise<void> | void): Promise<Unsubscribe> {
    const stop = this.broker.listen(this.subjectPrefix + subject, (raw) => void handler(JSON.parse(raw) as EventEnvelope));
    return Promise.resolve(() => {
      stop();
      return Promise.resolve();
    });
  }

  isConnected(): boolean {
    return true;
  }

  close(): Promise<void> {
    this.consumers.clear();
    return Promise.resolve();
  }
}
