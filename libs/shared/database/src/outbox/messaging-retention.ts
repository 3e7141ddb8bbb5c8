import type { DataSource } from 'typeorm';

/** Published events stay a day for inspection, then go. */
export const PUBLISHED_OUTBOX_RETENTION_HOURS = 24;
/**
 * A consumer's "already handled" marks must outlive any possible redelivery: the event stream
 * keeps events 7 days (JetStreamEventBus), so marks are kept twice as long.
 */
export const PROCESSED_EVENTS_RETENTION_DAYS = 14;
const BATCH = 5_000;

/** Deletes expired rows in short batches (no long lock on a busy table). */
export async function pruneMessagingTables(dataSource: DataSource, schema: string): Promise<{ outbox: number; processedEvents: number }> {
  const prune = async (sql: string, parameter: number) => {
    let total = 0;
    for (;;) {
      const [, affected] = await dataSource.query<[unknown[], number]>(sql, [parameter, BATCH]);
      total += affected;
      if (affected < BATCH) return total;
    }
  };
  const outbox = await prune(
    `DELETE FROM "${schema}".outbox WHERE id IN (
       SELECT id FROM "${schema}".outbox WHERE published_at < now() - make_interval(hours => $1) LIMIT $2)`,
    PUBLISHED_OUTBOX_RETENTION_HOURS,
  );
  const processedEvents = await prune(
    `DELETE FROM "${schema}".processed_events WHERE (consumer, event_id) IN (
       SELECT consumer, event_id FROM "${schema}".processed_events WHERE processed_at < now() - make_interval(days => $1) LIMIT $2)`,
    PROCESSED_EVENTS_RETENTION_DAYS,
  );
  return { outbox, processedEvents };
}
