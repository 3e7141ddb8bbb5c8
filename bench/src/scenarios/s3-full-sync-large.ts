import { Client } from 'pg';
import { percentile, timeRounds } from '../stats';
import type { Scenario } from './scenario';

/**
 * S3 models a client's first start (or a reset) on a large account: a full sync of 5,000
 * tasks, 100 projects, 300 sections, 2,000 notes and 200 labels. Product half, TODO(#6): grow
 * one account with `growAccount` (accounts.ts) to that shape, then time POST /api/v1/sync
 * sync_token='*' resource_types=["all"] sequentially (p50), while sampling the sync service's
 * RSS from /metrics every 100 ms (peak); compare with `baselineFullRead` below.
 */
export const s3FullSyncLarge: Scenario = {
  id: 'S3',
  title: 'full sync: 5,000 tasks, 100 projects, 300 sections, 2,000 notes, 200 labels',
  target: '<= 2.5x baseline p50 time',
  needs: 'its product half: the resources and a seedLargeAccount exist since commit 5d9484c, the scenario is still to write',
};

/**
 * Baseline half: bare pg reading the same rows and JSON.stringify of them. `readQueries` are
 * one SELECT per resource with `$1` = user id; today only projects exist
 * (`SELECT * FROM sync.projects WHERE owner_id = $1 AND NOT is_deleted`). TODO(#6): the
 * items, sections, notes and labels queries, with the product's own WHERE clauses.
 */
export async function baselineFullRead(databaseUrl: string, userId: string, readQueries: readonly string[], rounds: number): Promise<{ p50Ms: number; bytes: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  let bytes = 0;
  try {
    const read = async () => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const results: Record<string, unknown[]> = {};
      for (const [index, sql] of readQueries.entries()) results[`r${index}`] = (await client.query(sql, [userId])).rows;
      await client.query('COMMIT');
      bytes = JSON.stringify(results).length;
    };
    await timeRounds(3, read);
    return { p50Ms: percentile(await timeRounds(rounds, read), 50), bytes };
  } finally {
    await client.end();
  }
}
