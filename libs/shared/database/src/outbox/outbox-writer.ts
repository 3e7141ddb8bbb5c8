import { randomUUID } from 'node:crypto';
import type { EventSubject } from '@doable/contracts-common';
import { currentCorrelationId } from '@doable/shared-logging';
import type { EntityManager } from 'typeorm';

/**
 * Records an event inside the caller's transaction. Nothing is sent here: the relay publishes
 * after commit, so the event exists exactly when the change does.
 */
export class OutboxWriter {
  constructor(private readonly schema: string) {}

  async enqueue<P>(manager: EntityManager, event: EventSubject<P>, payload: P): Promise<string> {
    const eventId = randomUUID();
    const checked = event.payload.parse(payload);
    await manager.query(`INSERT INTO "${this.schema}".outbox (event_id, subject, payload, correlation_id) VALUES ($1, $2, $3, $4)`, [
      eventId,
      event.name,
      JSON.stringify(checked),
      currentCorrelationId() ?? null,
    ]);
    return eventId;
  }
}
