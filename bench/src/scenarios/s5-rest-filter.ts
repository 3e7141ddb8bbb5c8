import { ISSUE_SIZE } from '@doable/sync-domain/testing';
import { Client } from 'pg';
import { startBaselineServer } from '../baseline/start-server';
import { backendPids, CpuMeter, type CpuGroups } from '../cpu';
import type { Cluster } from '../cluster';
import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import { createLargeAccount, type LargeAccount } from '../large-accounts';
import { runLoad } from '../load';
import type { LoadResult } from '../load-plan';
import { failures } from './s1-no-change-sync';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const CONNECTIONS = 16;
/** Issue #48 (it was 0.6 since issue #18, 0.4 before). */
const TARGET_RATIO = 0.8;
const PATH = `/rest/v2/tasks?filter=${encodeURIComponent('today | overdue')}`;

/**
 * S5 models an integration listing what is due: `GET /rest/v2/tasks?filter=today | overdue` on
 * an account of 5,000 tasks (the issue's large account), a third of them dated, from 15 days
 * ago to 14 days ahead, so about half the dated ones match. The product parses the filter,
 * evaluates it in SQL in the sync service and renders REST v2 tasks; the baseline is bare
 * node:http + pg running the equivalent WHERE and JSON.stringify of the rows. Both must answer
 * the same number of tasks before anything is timed.
 */
export const s5RestFilter: Scenario = {
  id: 'S5',
  title: 'GET /rest/v2/tasks?filter=today | overdue on 5,000 tasks',
  target: `>= ${TARGET_RATIO} of baseline req/s`,
  run: async (context) => [await measure(context)],
};

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const account = await createLargeAccount(cluster.databaseUrl, `${context.runId}-s5`, ISSUE_SIZE);
  await spreadDueDates(cluster.databaseUrl, account);
  const productCount = await countAnswer(cluster.gatewayUrl, account.token);

  const baselineServer = await startBaselineServer('filter-tasks-server', { DATABASE_URL: cluster.databaseUrl, POOL_SIZE: '10' });
  let baseline: LoadResult;
  let baselineCount: number;
  let baselineCpu: Record<string, number>;
  try {
    baselineCount = await countAnswer(baselineServer.url, account.token);
    const baselineRun = await measured(context, baselineServer.url, account, async () => new Map([['baseline', [baselineServer.child.pid]], ['postgres', await backendPids(cluster.databaseUrl, TEST_POSTGRES_ADMIN_URL)]]));
    baseline = baselineRun.result;
    baselineCpu = baselineRun.cpu;
  } finally {
    await baselineServer.stop();
  }
  if (productCount !== baselineCount) throw new Error(`S5: the product answered ${productCount} tasks, the baseline ${baselineCount}: they do not compare`);
  const productRun = await measured(context, cluster.gatewayUrl, account, () => productGroups(cluster));
  const product = productRun.result;

  const ratio = Math.round((product.requestsPerSec / baseline.requestsPerSec) * 100) / 100;
  const clean = failures(product) === 0 && failures(baseline) === 0;
  const figures = (result: LoadResult) => ({ 'req/s': Math.round(result.requestsPerSec), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99, failures: failures(result) });
  return {
    id: 'S5',
    mode: 'cluster',
    what: s5RestFilter.title,
    status: 'measured',
    product: { tasks: productCount, ...figures(product) },
    baseline: { tasks: baselineCount, ...figures(baseline) },
    ratio: { name: 'product req/s / baseline req/s', value: ratio },
    target: s5RestFilter.target,
    pass: clean && ratio >= TARGET_RATIO,
    valid: clean,
    notes: [
      `${productCount} of ${ISSUE_SIZE.tasks} tasks match; ${CONNECTIONS} connections; account seeded in bulk SQL in ${account.seedS} s`,
      'baseline: bare node:http + pg (pool 10), the equivalent WHERE in one SELECT and JSON.stringify of the rows',
      `CPU ms per request, product: ${describe(productRun.cpu)}; baseline: ${describe(baselineCpu)}`,
      ...(clean ? [] : [`failures: ${[...product.failureSamples, ...baseline.failureSamples].slice(0, 3).join(' | ')}`]),
    ],
    details: { product, baseline, productCpu: productRun.cpu, baselineCpu },
  };
}

/** A third of the tasks are dated by the seed; spread them over 15 days ago to 14 days ahead. */
async function spreadDueDates(databaseUrl: string, account: LargeAccount): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `UPDATE sync.items SET due = jsonb_set(due, '{date}', to_jsonb(to_char(current_date + (id % 30)::int - 15, 'YYYY-MM-DD')))
        WHERE user_id = $1 AND due IS NOT NULL`,
      [account.userId],
    );
  } finally {
    await client.end();
  }
}

async function countAnswer(url: string, token: string): Promise<number> {
  const response = await fetch(new URL(PATH, url), { headers: { authorization: `Bearer ${token}` } });
  const body: unknown = await response.json();
  if (response.status !== 200 || !Array.isArray(body)) throw new Error(`S5: ${url} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.length;
}

/** The processes whose CPU a product request spends: the three services on its path, and PostgreSQL. */
async function productGroups(cluster: Cluster): Promise<CpuGroups> {
  const pidOf = (service: string) => cluster.children.get(service)!.pid;
  return new Map([
    ['gateway', [pidOf('gateway')]],
    ['rest', [pidOf('rest')]],
    ['sync', [pidOf('sync')]],
    ['postgres', await backendPids(cluster.databaseUrl, TEST_POSTGRES_ADMIN_URL)],
  ]);
}

function describe(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ');
}

/** A warm-up run, then the measured run with each process group's CPU time read around it. */
async function measured(context: BenchContext, url: string, account: LargeAccount, groups: () => Promise<CpuGroups>): Promise<{ result: LoadResult; cpu: Record<string, number> }> {
  if (context.options.warmupS > 0) await load(url, account, context.options.warmupS);
  const meter = new CpuMeter(groups);
  await meter.start();
  const result = await load(url, account, context.options.durationS);
  return { result, cpu: await meter.perRequest(result.requests) };
}

function load(url: string, account: LargeAccount, durationS: number): Promise<LoadResult> {
  return runLoad({
    kind: 'get',
    url,
    path: PATH,
    users: [{ token: account.token, syncToken: '' }],
    connections: CONNECTIONS,
    durationS,
    warmupS: 0,
    expectPrefix: '[',
  });
}
