import { randomUUID } from 'node:crypto';
import type { EventSubject } from '@doable/contracts-common';
import { currentCorrelationId, currentTraceparent } from '@doable/shared-logging';
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
    await manager.query(`INSERT INTO "${this.schema}".outbox (event_id, subject, payload, correlation_id, trace_parent) VALUES ($1, $2, $3, $4, $5)`, [
      eventId,
      event.name,
      JSON.stringify(checked),
      currentCorrelationId() ?? null,
      currentTraceparent() ?? null,
    ]);
    return eventId;
  }

  /**
   * Several events of one subject in ONE statement (a command over many objects, a group of
   * 100 item_add written together): one round trip however many there are, in their order (the
   * relay publishes by id). Answers their ids.
   */
  async enqueueAll<P>(manager: EntityManager, event: EventSubject<P>, payloads: readonly P[]): Promise<string[]> {
    if (payloads.length === 0) return [];
    const eventIds = payloads.map(() => randomUUID());
    const checked = payloads.map((payload) => JSON.stringify(event.payload.parse(payload)));
    await manager.query(
      `INSERT INTO "${this.schema}".outbox (event_id, subject, payload, correlation_id, trace_parent)
       SELECT event_id, $3, payload::jsonb, $4, $5 FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS e(event_id, payload, n) ORDER BY n`,
      [eventIds, checked, event.name, currentCorrelationId() ?? null, currentTraceparent() ?? null],
    );
    return eventIds;
  }
}
