import type { EntityManager } from 'typeorm';

/**
 * Makes an event consumer idempotent: call inside the handler's transaction; when it returns
 * false the event was already handled and the handler does nothing. Because the mark and the
 * handler's writes commit together, a redelivered event can never apply twice.
 */
export async function claimEvent(manager: EntityManager, schema: string, consumer: string, eventId: string): Promise<boolean> {
  const result = await manager.query<unknown[]>(
    `INSERT INTO "${schema}".processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
    [consumer, eventId],
  );
  return result.length === 1;
}
