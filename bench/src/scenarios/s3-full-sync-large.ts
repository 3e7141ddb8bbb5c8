import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import { STORED_NOTE_JSON, STORED_TASK_JSON } from '@doable/sync-dialects';
import { ISSUE_SIZE } from '@doable/sync-domain/testing';
import { Client } from 'pg';
import { postSyncText } from '../accounts';
import { clusterCpuGroups, CpuMeter } from '../cpu';
import { createLargeAccount } from '../large-accounts';
import { residentBytesOfPid, samplePidPeaks } from '../metrics';
import { percentile, timeRounds } from '../stats';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const ROUNDS = 25;
const WARMUP_ROUNDS = 2;
/** Issue #31 (1.6 in issue #18; 2.5 before). */
const TARGET_RATIO = 1.3;
const TIMEOUT_MS = 60_000;

/** What the answer must hold: the seed, plus the Inbox every account has. */
const EXPECTED: Readonly<Record<string, number>> = {
  projects: ISSUE_SIZE.projects + 1,
  sections: ISSUE_SIZE.projects * ISSUE_SIZE.sectionsPerProject,
  items: ISSUE_SIZE.tasks,
  notes: ISSUE_SIZE.notes,
  labels: ISSUE_SIZE.labels,
};

/**
 * S3 models a client's first start (or a reset) on a large account: a full sync
 * (sync_token '*', resource_types ["all"]) of 5,000 tasks, 100 projects, 300 sections, 2,000
 * notes and 200 labels, on an account of its own filled by `seedLargeAccount`. Sequential
 * requests, p50 of the time until the whole answer has arrived (parsed afterwards, outside the
 * clock, to check it holds every object), while the sync service's RSS is sampled from /proc every 100 ms
 * (peak). Baseline: `baselineFullRead` below.
 */
export const s3FullSyncLarge: Scenario = {
  id: 'S3',
  title: 'full sync: 5,000 tasks, 100 projects, 300 sections, 2,000 notes, 200 labels',
  target: `<= ${TARGET_RATIO}x baseline p50 time`,
  run: async (context) => [await measure(context)],
};

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const account = await createLargeAccount(cluster.databaseUrl, `${context.runId}-s3`, ISSUE_SIZE);
  // Read from /proc, not sync's /metrics: a request into sync every 100 ms was 5 ms of its CPU per
  // full sync (prom-client's rendering), on the event loop the measured answers need.
  const syncPid = cluster.children.get('sync')!.pid;
  const rssBefore = residentBytesOfPid(syncPid);
  let failures = 0;
  let firstFailure = '';
  let bytes = 0;
  const fullSync = async () => {
    const answer = await postSyncText(cluster.gatewayUrl, account.token, { sync_token: '*', resource_types: ['all'] }, TIMEOUT_MS);
    bytes = answer.text.length;
    const problem = answer.status === 200 ? missingObjects(answer.text) : `${answer.status} ${answer.text.slice(0, 300)}`;
    if (problem) {
      failures++;
      firstFailure ||= problem;
    }
  };
  const baselineReader = await openBaselineReader(cluster.databaseUrl, account.userId);
  const productMs: number[] = [];
  const baselineMs: number[] = [];
  let peakMiB: number | undefined;
  let cpu: CpuMeter | undefined;
  let cpuPerSync: Record<string, number> | undefined;
  try {
    await timeRounds(WARMUP_ROUNDS, async () => {
      await fullSync();
      await baselineReader.read();
    });
    failures = 0;
    const peak = samplePidPeaks([syncPid], 100);
    // Every part on the product's path (a steadier figure than the p50s on a shared machine, and the
    // capacity model's price of a full sync); the baseline's own PostgreSQL backend is left out.
    const groups = clusterCpuGroups(cluster, TEST_POSTGRES_ADMIN_URL);
    cpu = new CpuMeter(async () => {
      const all = await groups();
      return new Map([...all].map(([name, pids]) => [name, name === 'postgres' ? pids.filter((pid) => pid !== baselineReader.backendPid) : pids]));
    });
    await cpu.start();
    // Alternating, so the product and its baseline see the same moments of a noisy machine.
    for (let round = 0; round < ROUNDS; round++) {
      productMs.push(...(await timeRounds(1, fullSync)));
      baselineMs.push(...(await timeRounds(1, () => baselineReader.read())));
    }
    cpuPerSync = await cpu.perRequest(ROUNDS);
    peakMiB = Math.round((peak.stop()[0] / 1024 / 1024) * 10) / 10;
  } finally {
    await baselineReader.close();
  }
  const durations = productMs;
  const baselineResult = { p50Ms: percentile(baselineMs, 50), bytes: baselineReader.bytes(), rows: baselineReader.rows() };

  const product = {
    'p50 ms': Math.round(percentile(durations, 50)),
    'p99 ms': Math.round(percentile(durations, 99)),
    'answer KiB': Math.round(bytes / 1024),
    'sync peak RSS MiB': peakMiB ?? Number.NaN,
    failures,
  };
  const baseline = { 'p50 ms': Math.round(baselineResult.p50Ms * 10) / 10, 'JSON KiB': Math.round(baselineResult.bytes / 1024) };
  const ratio = Math.round((percentile(durations, 50) / baselineResult.p50Ms) * 100) / 100;
  return {
    id: 'S3',
    mode: 'cluster',
    what: s3FullSyncLarge.title,
    status: 'measured',
    product,
    baseline,
    ratio: { name: 'p50 time product / baseline', value: ratio },
    target: s3FullSyncLarge.target,
    pass: failures === 0 && ratio <= TARGET_RATIO,
    valid: failures === 0,
    notes: [
      `${ROUNDS} full syncs after ${WARMUP_ROUNDS} warm-up ones, one at a time, alternating with the baseline, on an account seeded in ${account.seedS} s; baseline: bare pg reading the same rows (same WHERE clauses, one REPEATABLE READ transaction) + JSON.stringify`,
      `CPU ms per full sync (the measured rounds' CPU / ${ROUNDS}): ${cpuPerSync ? Object.entries(cpuPerSync).map(([name, ms]) => `${name} ${Math.round(ms)}`).join(', ') : '?'}`,
      `sync RSS MiB before ${rssBefore === undefined ? '?' : Math.round((rssBefore / 1024 / 1024) * 10) / 10}, peak while serving ${peakMiB ?? '?'}`,
      ...(failures > 0 ? [`${failures} answers were wrong or failed, so the figures are not valid; first: ${firstFailure}`] : []),
    ],
    details: { durationsMs: durations, baselineDurationsMs: baselineMs, baseline: baselineResult, seedS: account.seedS, cpuMsPerRequest: { product: cpuPerSync } },
  };
}

/** Says what the answer lacks (undefined when it holds every seeded object). */
function missingObjects(text: string): string | undefined {
  const body = JSON.parse(text) as Record<string, unknown>;
  const wrong = Object.entries(EXPECTED)
    .filter(([key, count]) => !Array.isArray(body[key]) || (body[key] as unknown[]).length !== count)
    .map(([key, count]) => `${key}: ${Array.isArray(body[key]) ? (body[key] as unknown[]).length : 'none'} of ${count}`);
  return wrong.length > 0 ? `incomplete answer (${wrong.join(', ')})` : undefined;
}

/**
 * Columns the product keeps for its own reads (each task's and comment's JSON text, migrations
 * StoredTaskJson and StoredNoteJson), which the baseline leaves out of its rows: they would give
 * it three more copies of each task to stringify. Every other column is read, found in the
 * catalog, so a column added later is in the baseline's rows without an edit here.
 */
const PRODUCT_TEXTS: Readonly<Record<'items' | 'notes', readonly string[]>> = {
  items: Object.values(STORED_TASK_JSON.columns),
  notes: Object.values(STORED_NOTE_JSON.columns),
};

/** The table's columns less the product's texts, in the table's order, for a SELECT list. */
async function rowColumns(client: Client, table: keyof typeof PRODUCT_TEXTS): Promise<string> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = 'sync' AND table_name = $1 AND NOT (column_name = ANY ($2::text[])) ORDER BY ordinal_position`,
    [table, PRODUCT_TEXTS[table]],
  );
  return rows.map((row) => `"${row.name}"`).join(', ');
}

/**
 * The rows a full sync reads, with the product's own WHERE clauses (projects the user is a
 * member of; nothing deleted, archived or in history), selected whole.
 */
const fullRead = (columns: Readonly<Record<keyof typeof PRODUCT_TEXTS, string>>): Readonly<Record<string, string>> => ({
  user: `SELECT * FROM sync.users WHERE id = $1`,
  projects: `SELECT * FROM sync.projects WHERE id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1) AND NOT is_deleted AND NOT is_archived ORDER BY child_order, id`,
  items: `SELECT ${columns.items} FROM sync.items WHERE project_id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1) AND NOT is_deleted AND NOT in_history ORDER BY project_id, child_order, id`,
  sections: `SELECT * FROM sync.sections WHERE project_id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1) AND NOT is_deleted AND NOT is_archived ORDER BY project_id, section_order, id`,
  labels: `SELECT * FROM sync.labels WHERE user_id = $1 AND NOT is_deleted ORDER BY item_order, id`,
  filters: `SELECT * FROM sync.filters WHERE user_id = $1 AND NOT is_deleted ORDER BY item_order, id`,
  notes: `SELECT ${columns.notes} FROM sync.notes WHERE project_id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1) AND NOT is_deleted ORDER BY id`,
  reminders: `SELECT * FROM sync.reminders WHERE project_id IN (SELECT project_id FROM sync.project_members WHERE user_id = $1) AND NOT is_deleted ORDER BY id`,
});

/** Baseline half: bare pg reading the same rows in one snapshot, and JSON.stringify of them. */
export async function openBaselineReader(
  databaseUrl: string,
  userId: string,
): Promise<{ read(): Promise<void>; bytes(): number; rows(): Record<string, number>; backendPid: number; close(): Promise<void> }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const reads = fullRead({ items: await rowColumns(client, 'items'), notes: await rowColumns(client, 'notes') });
  let bytes = 0;
  const rows: Record<string, number> = {};
  return {
    async read() {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const results: Record<string, unknown[]> = {};
      for (const [resource, sql] of Object.entries(reads)) {
        results[resource] = (await client.query(sql, [userId])).rows;
        rows[resource] = results[resource].length;
      }
      await client.query('COMMIT');
      bytes = JSON.stringify(results).length;
    },
    bytes: () => bytes,
    rows: () => ({ ...rows }),
    backendPid,
    close: () => client.end(),
  };
}
