import type { EventEnvelope } from '@doable/contracts-common';
import type { InProcessBroker } from '../in-process/in-process-broker';
import type { DurableConsumer, EventBus, Unsubscribe } from './event-bus';

/**
 * Embedded mode: publishing hands the event to every registered durable consumer of its
 * subject and resolves only when all have handled it. The outbox row stays unpublished
 * until then, so a failed or interrupted delivery is retried from the outbox (consumers are
 * idempotent). All consumers register at start-up, before any relay runs.
 */
export class InProcessEventBus implements EventBus {
  private readonly consumers = new Map<string, DurableConsumer>();

  constructor(
    private readonly broker: InProcessBroker,
    private readonly subjectPrefix: string,
  ) {}

  async publish(envelope: EventEnvelope): Promise<void> {
    const raw = JSON.stringify(envelope);
    for (const consumer of this.consumers.values()) {
      if (consumer.subject === envelope.subject) await consumer.handle(JSON.parse(raw) as EventEnvelope);
    }
    this.broker.publish(this.subjectPrefix + envelope.subject, raw);
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
