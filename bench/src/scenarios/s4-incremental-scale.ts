import type { LargeAccountSize } from '@doable/sync-domain/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { postSync } from '../accounts';
import { createLargeAccount, type LargeAccount } from '../large-accounts';
import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import { clusterCpuGroups, CpuMeter } from '../cpu';
import { percentile } from '../stats';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const ROUNDS = 100;
const WARMUP_ROUNDS = 5;
/** Issue #18 (it was 1.3). */
const TARGET_RATIO = 1.1;

/** The two accounts differ in tasks (and their comments) only: 100x more of both. */
const SMALL: LargeAccountSize = { projects: 100, sectionsPerProject: 3, tasks: 500, notes: 200, labels: 200 };
const LARGE: LargeAccountSize = { ...SMALL, tasks: 50_000, notes: 20_000 };

/**
 * S4 checks that an incremental sync costs what changed, not what the account holds. Two
 * accounts of their own, 500 and 50,000 tasks, filled in bulk SQL. Each round, on each account
 * in turn: one item_update through the API (not timed), then the timed incremental sync
 * (resource_types ["all"]) from the token before it, which must carry exactly that one task.
 * Ratio = large p50 / small p50; the small account is the baseline, in the same run.
 */
export const s4IncrementalScale: Scenario = {
  id: 'S4',
  title: 'incremental sync with one change: 50,000-task vs 500-task account',
  target: `<= ${TARGET_RATIO}x the small account`,
  run: async (context) => [await measure(context)],
};

interface Polled {
  readonly name: string;
  readonly account: LargeAccount;
  readonly taskId: string;
  token: string;
  readonly durations: number[];
  failures: number;
  firstFailure: string;
}

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const accounts = { small: await createLargeAccount(cluster.databaseUrl, `${context.runId}-s4s`, SMALL), large: await createLargeAccount(cluster.databaseUrl, `${context.runId}-s4l`, LARGE) };
  const polled = { small: await startPolling(cluster.gatewayUrl, cluster.databaseUrl, 'small', accounts.small), large: await startPolling(cluster.gatewayUrl, cluster.databaseUrl, 'large', accounts.large) };
  // Interleaved, so both accounts see the same moments of a noisy machine.
  const meter = new CpuMeter(clusterCpuGroups(cluster, TEST_POSTGRES_ADMIN_URL));
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    if (round === WARMUP_ROUNDS) await meter.start();
    for (const side of [polled.small, polled.large]) await changeAndSync(cluster.gatewayUrl, side, round, round >= WARMUP_ROUNDS);
  }
  // A round's pair on one account: the capacity model's price of a write and the sync that fetches it.
  const cpu = await meter.perRequest(2 * ROUNDS);
  const figures = (side: Polled) => ({ 'p50 ms': round1(percentile(side.durations, 50)), 'p99 ms': round1(percentile(side.durations, 99)), failures: side.failures });
  const product = { tasks: LARGE.tasks, ...figures(polled.large) };
  const baseline = { tasks: SMALL.tasks, ...figures(polled.small) };
  const failures = polled.small.failures + polled.large.failures;
  const ratio = Math.round((percentile(polled.large.durations, 50) / percentile(polled.small.durations, 50)) * 100) / 100;
  return {
    id: 'S4',
    mode: 'cluster',
    what: s4IncrementalScale.title,
    status: 'measured',
    product,
    baseline,
    ratio: { name: 'p50 time large / small account', value: ratio },
    target: s4IncrementalScale.target,
    pass: failures === 0 && ratio <= TARGET_RATIO,
    valid: failures === 0,
    notes: [
      `${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up ones, alternating accounts: item_update (not timed), then the incremental sync from the token before it; accounts seeded in bulk SQL in ${accounts.small.seedS} s (500 tasks) and ${accounts.large.seedS} s (50,000 tasks, 20,000 comments)`,
      `CPU ms per round (an item_update and the incremental sync that fetches it, both accounts together): ${Object.entries(cpu).map(([name, ms]) => `${name} ${ms}`).join(', ')}`,
      ...[polled.small, polled.large].filter((side) => side.failures > 0).map((side) => `${side.failures} rounds of the ${side.name} account were wrong or failed, so the figures are not valid; first: ${side.firstFailure}`),
    ],
    details: { smallDurationsMs: polled.small.durations, largeDurationsMs: polled.large.durations, sizes: { small: SMALL, large: LARGE }, cpuMsPerRequest: { product: cpu } },
  };
}

/** The task the rounds edit, and a token at the account's current high-water mark (a cheap full sync of the user only). */
async function startPolling(gatewayUrl: string, databaseUrl: string, name: string, account: LargeAccount): Promise<Polled> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const taskId = await client
    .query<{ id: string }>(`SELECT id::text FROM sync.items WHERE user_id = $1 ORDER BY id LIMIT 1`, [account.userId])
    .then((result) => result.rows[0].id)
    .finally(() => client.end());
  const answer = await postSync(gatewayUrl, account.token, { sync_token: '*', resource_types: ['user'] });
  const token = answer.body['sync_token'];
  if (answer.status !== 200 || typeof token !== 'string') throw new Error(`S4: no sync token for the ${name} account: ${answer.status}`);
  return { name, account, taskId, token, durations: [], failures: 0, firstFailure: '' };
}

async function changeAndSync(gatewayUrl: string, side: Polled, round: number, measured: boolean): Promise<void> {
  const uuid = randomUUID();
  const write = await postSync(gatewayUrl, side.account.token, { commands: [{ type: 'item_update', uuid, args: { id: side.taskId, content: `Edited ${round}` } }] });
  const started = process.hrtime.bigint();
  const read = await postSync(gatewayUrl, side.account.token, { sync_token: side.token, resource_types: ['all'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const items = read.body['items'];
  const seenOnce = Array.isArray(items) && items.length === 1 && String((items[0] as Record<string, unknown>)['id']) === side.taskId;
  if (typeof read.body['sync_token'] === 'string') side.token = read.body['sync_token'];
  if (!measured) return;
  side.durations.push(ms);
  const writeStatus = (write.body['sync_status'] as Record<string, unknown> | undefined)?.[uuid];
  if (write.status !== 200 || writeStatus !== 'ok' || read.status !== 200 || !seenOnce) {
    side.failures++;
    side.firstFailure ||= `write ${write.status} ${JSON.stringify(writeStatus)}; read ${read.status} with ${Array.isArray(items) ? items.length : 'no'} items`;
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
