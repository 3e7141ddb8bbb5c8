import { Client } from 'pg';
import { eventStreamDrained, waitFor } from '@doable/shared-testing';

/** What became of a fault run's events once everything settled: the fault specs' shared check. */
export interface SettledEvents {
  /** Outbox rows never published (0 once every outbox drained). */
  unpublished: number;
  /** Each task's `added` activity (sync's consumer): logged once, not lost, not twice. */
  activity: { tasks: number; logged: number; lost: number; duplicated: number };
}

/**
 * Waits for every service's outbox to drain into `stream` and every consumer of it to catch up,
 * then counts each task's `added` activity. Consumers take events in batches, a transaction per
 * batch (issue #48): each task present has its event logged exactly once.
 */
export async function settledEvents(databaseUrl: string, natsUrl: string, stream: string, taskIds: readonly string[]): Promise<SettledEvents> {
  const database = new Client({ connectionString: databaseUrl });
  await database.connect();
  const settled: SettledEvents = { unpublished: -1, activity: { tasks: taskIds.length, logged: 0, lost: -1, duplicated: -1 } };
  try {
    await waitFor(async () => {
      const schemas = (await database.query<{ table_schema: string }>("SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'")).rows;
      let waiting = 0;
      for (const { table_schema: schema } of schemas) waiting += Number((await database.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".outbox WHERE published_at IS NULL`)).rows[0].n);
      settled.unpublished = waiting;
      return waiting === 0;
    }, 'every outbox to drain', 60_000);
    await waitFor(() => eventStreamDrained(stream, natsUrl), 'every consumer to catch up', 120_000);
    const { rows } = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sync.activity_events WHERE object_type = 'item' AND event_type = 'added' AND object_id = ANY($1::bigint[]) GROUP BY object_id`,
      [taskIds],
    );
    Object.assign(settled.activity, { logged: rows.length, lost: taskIds.length - rows.length, duplicated: rows.filter((row) => row.n > 1).length });
    return settled;
  } finally {
    await database.end();
  }
}
