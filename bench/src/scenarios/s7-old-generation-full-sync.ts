import { ISSUE_SIZE } from '@doable/sync-domain/testing';
import { postSyncText } from '../accounts';
import { createLargeAccount } from '../large-accounts';
import { percentile, timeRounds } from '../stats';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const ROUNDS = 25;
const WARMUP_ROUNDS = 2;
/**
 * Guessed where issue #18 gives none: an old generation renders the same rows plus one flat
 * `item_order`/`indent` walk per project and label ids, so half again api/v1's time is the most
 * it should cost.
 */
const TARGET_RATIO = 1.5;
const TIMEOUT_MS = 60_000;

/** The two answers, each as its generation shapes it: both must hold every active task and project. */
const GENERATIONS = [
  { name: 'api/v1', path: '/api/v1/sync' },
  { name: 'v7', path: '/API/v7/sync' },
] as const;

/**
 * S7: what an old generation costs over the current one. A Sync v7 full sync (`/API/v7/sync`,
 * flat `item_order`/`indent` lists, labels as ids, legacy dues) of the S3 account (5,000 tasks,
 * 100 projects, 300 sections, 2,000 notes, 200 labels), against the api/v1 full sync of the same
 * account in the same run, alternating, one request at a time: p50 time until the whole answer
 * has arrived. The baseline is the product's own current generation, so the ratio is the price
 * of the old shape alone.
 */
export const s7OldGenerationFullSync: Scenario = {
  id: 'S7',
  title: 'old generation: Sync v7 full sync of the S3 account vs api/v1',
  target: `<= ${TARGET_RATIO}x api/v1 p50 time`,
  run: async (context) => [await measure(context)],
};

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const account = await createLargeAccount(cluster.databaseUrl, `${context.runId}-s7`, ISSUE_SIZE);
  let failures = 0;
  let firstFailure = '';
  const bytes: Record<string, number> = {};
  const fullSync = (path: string, name: string) => async () => {
    const answer = await postSyncText(cluster.gatewayUrl, account.token, { sync_token: '*', resource_types: ['all'] }, TIMEOUT_MS, path);
    bytes[name] = answer.text.length;
    const problem = answer.status === 200 ? incomplete(answer.text) : `${answer.status} ${answer.text.slice(0, 300)}`;
    if (problem) {
      failures++;
      firstFailure ||= `${name}: ${problem}`;
    }
  };
  const [current, old] = GENERATIONS.map((generation) => fullSync(generation.path, generation.name));
  await timeRounds(WARMUP_ROUNDS, async () => {
    await current();
    await old();
  });
  failures = 0;
  const currentMs: number[] = [];
  const oldMs: number[] = [];
  // Alternating, so both see the same moments of a noisy machine.
  for (let round = 0; round < ROUNDS; round++) {
    currentMs.push(...(await timeRounds(1, current)));
    oldMs.push(...(await timeRounds(1, old)));
  }
  const ratio = Math.round((percentile(oldMs, 50) / percentile(currentMs, 50)) * 100) / 100;
  return {
    id: 'S7',
    mode: 'cluster',
    what: s7OldGenerationFullSync.title,
    status: 'measured',
    product: { 'p50 ms': Math.round(percentile(oldMs, 50)), 'p99 ms': Math.round(percentile(oldMs, 99)), 'answer KiB': Math.round((bytes['v7'] ?? 0) / 1024), failures },
    baseline: { 'p50 ms': Math.round(percentile(currentMs, 50)), 'answer KiB': Math.round((bytes['api/v1'] ?? 0) / 1024) },
    ratio: { name: 'p50 time v7 / api/v1', value: ratio },
    target: s7OldGenerationFullSync.target,
    pass: failures === 0 && ratio <= TARGET_RATIO,
    valid: failures === 0,
    notes: [
      `${ROUNDS} full syncs of each generation after ${WARMUP_ROUNDS} warm-up ones, one at a time, alternating, on an account seeded in ${account.seedS} s; baseline: the api/v1 full sync of the same account`,
      ...(failures > 0 ? [`${failures} answers were wrong or failed, so the figures are not valid; first: ${firstFailure}`] : []),
    ],
    details: { v7DurationsMs: oldMs, apiV1DurationsMs: currentMs, seedS: account.seedS },
  };
}

/** Says what an answer lacks: every active task and project (the Inbox too) in its `items` and `projects`. */
function incomplete(text: string): string | undefined {
  const body = JSON.parse(text) as Record<string, unknown>;
  const expected: Record<string, number> = { items: ISSUE_SIZE.tasks, projects: ISSUE_SIZE.projects + 1 };
  const wrong = Object.entries(expected)
    .filter(([key, count]) => !Array.isArray(body[key]) || (body[key] as unknown[]).length !== count)
    .map(([key, count]) => `${key}: ${Array.isArray(body[key]) ? (body[key] as unknown[]).length : 'none'} of ${count}`);
  return wrong.length > 0 ? `incomplete answer (${wrong.join(', ')})` : undefined;
}
