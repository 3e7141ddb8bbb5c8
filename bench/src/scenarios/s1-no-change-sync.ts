import { type BenchUser, initialFullSyncs, postSync } from '../accounts';
import { startBaselineServer } from '../baseline/start-server';
import { startEmbedded } from '../embedded';
import { runLoad } from '../load';
import type { LoadResult } from '../load-plan';
import { residentMiB } from '../metrics';
import { clusterCpuGroups, CpuMeter, type CpuGroups, type ThreadRef } from '../cpu';
import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

export const S1_USERS = 200;
const CONNECTIONS = 64;
/**
 * Issue #31's targets. Cluster: what the product adds to the design card's HTTP stack, so the
 * reference is the framework floor (the same answer from the smallest Nest + Express app); the
 * gateway answers a repeated no-change poll itself. Embedded: its bare baseline on the same PGlite.
 */
const TARGET = {
  cluster: { of: 'floor', ratio: 0.9 },
  embedded: { of: 'baseline', ratio: 0.6 },
} as const;
const SYNC_PATH = '/api/v1/sync';

/**
 * S1 models the steady state of a deployment: every client polling with its last sync token
 * and nothing new to fetch. The product answers from the user's high-water mark (one indexed
 * row); the baseline does that same single query behind bare node:http, so the ratio is the
 * price of everything else (Express, auth, NATS hop, validation, serialisation).
 */
export const s1NoChangeSync: Scenario = {
  id: 'S1',
  title: `no-change incremental sync, ${S1_USERS} users, ${CONNECTIONS} connections`,
  target: `>= ${TARGET.cluster.ratio} of the framework floor's req/s (cluster), ${TARGET.embedded.ratio} of baseline req/s (embedded)`,
  run: async (context) => [await measureCluster(context)],
  runEmbedded: async (context) => [await measureEmbedded(context)],
};

async function measureCluster(context: BenchContext): Promise<ScenarioRow> {
  const { cluster, users } = await context.cluster();
  const rssBefore = await residentMiB(cluster.serviceUrls);
  const product = clusterCpuGroups(cluster, TEST_POSTGRES_ADMIN_URL);
  const compared = await compareWithBaseline(context, cluster.gatewayUrl, cluster.databaseUrl, users, 10, {
    product,
    // Shared by both sides: the NATS server (the baseline does not use it) and our database's backends.
    baseline: async (baselinePid) => {
      const groups = await product();
      return new Map<string, ReadonlyArray<number | ThreadRef>>([['baseline', [baselinePid]], ...[...groups].filter(([name]) => name === 'nats-server' || name === 'postgres')]);
    },
  });
  const rssAfter = await residentMiB(cluster.serviceUrls);
  return row('cluster', compared, { rssMiB: { before: rssBefore, after: rssAfter } }, [
    'baseline: bare node:http + pg (pool 10) on the same PostgreSQL database',
    `CPU ms per request, product: ${describeCpu(compared.productCpu)}; baseline: ${describeCpu(compared.baselineCpu)}`,
    `RSS MiB before -> after: ${describeRss(rssBefore, rssAfter)}`,
  ]);
}

export function describeRss(before: Record<string, number | null>, after: Record<string, number | null>): string {
  return Object.keys(before)
    .map((service) => `${service} ${before[service]} -> ${after[service]}`)
    .join(', ');
}

async function measureEmbedded(context: BenchContext): Promise<ScenarioRow> {
  const embedded = await startEmbedded(context.runId, S1_USERS, { cpuProfileDir: context.cpuProfileDir });
  try {
    const users = await initialFullSyncs(embedded.url, embedded.accounts);
    const rss = new Map([['embedded', embedded.url]]);
    const rssBefore = await residentMiB(rss);
    // The baseline reads the same PGlite database through the embedded process's socket server,
    // on one connection: PGlite runs one statement at a time, and several connections
    // interleaving on its socket produce protocol errors (see docs/performance/embedded-findings.md).
    // PGlite runs in a thread of its own: its CPU is shown apart (and is part of the process's).
    const pid = embedded.child.pid;
    const pgliteThread: Array<[string, ThreadRef[]]> = embedded.databaseThreadId === undefined ? [] : [['of which its PGlite thread', [{ pid, tid: embedded.databaseThreadId }]]];
    const compared = await compareWithBaseline(context, embedded.url, embedded.databaseUrl, users, 1, {
      product: () => Promise.resolve(new Map<string, ReadonlyArray<number | ThreadRef>>([['embedded', [pid]], ...pgliteThread])),
      baseline: (baselinePid) => Promise.resolve(new Map<string, ReadonlyArray<number | ThreadRef>>([['baseline', [baselinePid]], ['embedded (PGlite)', [pid]], ...pgliteThread])),
    });
    const rssAfter = await residentMiB(rss);
    return row('embedded', compared, { rssMiB: { before: rssBefore, after: rssAfter } }, [
      'baseline: bare node:http + pg (one connection) on the embedded PGlite, served by the embedded process (its PGlite thread)',
      `CPU ms per request, product: ${describeCpu(compared.productCpu)}; baseline: ${describeCpu(compared.baselineCpu)}`,
      `RSS MiB before -> after: ${describeRss(rssBefore, rssAfter)}`,
    ]);
  } finally {
    await embedded.close();
  }
}

function describeCpu(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ');
}

interface Measured {
  readonly result: LoadResult;
  readonly cpu: Record<string, number>;
}

interface Compared {
  readonly product: LoadResult;
  readonly baseline: LoadResult;
  /** The same answer from the smallest Nest + Express app (baseline/nest-express-sync-server.ts). */
  readonly floor: LoadResult;
  readonly productCpu: Record<string, number>;
  readonly baselineCpu: Record<string, number>;
  readonly floorCpu: Record<string, number>;
}

interface CpuGroupsOf {
  readonly product: () => Promise<CpuGroups>;
  readonly baseline: (baselinePid: number) => Promise<CpuGroups>;
}

async function compareWithBaseline(context: BenchContext, productUrl: string, databaseUrl: string, users: readonly BenchUser[], poolSize: number, cpuGroups: CpuGroupsOf): Promise<Compared> {
  const template = await noChangeAnswer(productUrl, users[0]);
  const env = { DATABASE_URL: databaseUrl, POOL_SIZE: String(poolSize), TEMPLATE: JSON.stringify(template) };
  const baselineRun = await measureReference(context, 'noop-sync-server', env, users, cpuGroups.baseline);
  const floorRun = await measureReference(context, 'nest-express-sync-server', env, users, cpuGroups.baseline);
  const productRun = await measure(context, productUrl, users, cpuGroups.product);
  return { product: productRun.result, baseline: baselineRun.result, floor: floorRun.result, productCpu: productRun.cpu, baselineCpu: baselineRun.cpu, floorCpu: floorRun.cpu };
}

/** Starts one of the reference servers, checks its answer, measures it, and stops it. */
async function measureReference(context: BenchContext, file: string, env: NodeJS.ProcessEnv, users: readonly BenchUser[], groups: CpuGroupsOf['baseline']): Promise<Measured> {
  const server = await startBaselineServer(file, env);
  try {
    const check = await postSync(server.url, users[0].token, { sync_token: users[0].syncToken, resource_types: ['all'] });
    if (check.status !== 200) throw new Error(`${file} answered ${check.status}: ${JSON.stringify(check.body)}`);
    return await measure(context, server.url, users, () => groups(server.child.pid));
  } finally {
    // Stopped before the next side runs: nothing of it (not even an idle connection) is left.
    await server.stop();
  }
}

/**
 * A warm-up run, then the measured run with each process group's CPU time read around it:
 * CPU per request shows where the work happens (the gateway, sync, NATS, PostgreSQL).
 */
async function measure(context: BenchContext, url: string, users: readonly BenchUser[], groups: () => Promise<CpuGroups>): Promise<Measured> {
  const plan = { kind: 'poll' as const, url, path: SYNC_PATH, users, connections: CONNECTIONS, warmupS: 0 };
  if (context.options.warmupS > 0) await runLoad({ ...plan, durationS: context.options.warmupS });
  // Read after the warm-up: the pools' database connections (and so their backends) exist by now.
  const meter = new CpuMeter(groups);
  await meter.start();
  const result = await runLoad({ ...plan, durationS: context.options.durationS });
  return { result, cpu: await meter.perRequest(result.requests) };
}

/** The product's own answer to a no-change sync, minus the token: the baseline sends the same keys. */
async function noChangeAnswer(productUrl: string, user: BenchUser): Promise<Record<string, unknown>> {
  const answer = await postSync(productUrl, user.token, { sync_token: user.syncToken, resource_types: ['all'] });
  if (answer.status !== 200) throw new Error(`a no-change sync answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const { sync_token: _token, ...rest } = answer.body;
  return rest;
}

export function failures(result: LoadResult): number {
  return result.non2xx + result.errors + result.timeouts + result.badAnswers + result.writeErrors;
}

function figures(result: LoadResult): Record<string, number> {
  return { 'req/s': Math.round(result.requestsPerSec), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99, failures: failures(result) };
}

/** What the framework alone costs, and how much of what is left the product keeps. */
function floorNote({ product, baseline, floor, floorCpu }: Compared): string {
  const of = (a: LoadResult, b: LoadResult) => Math.round((a.requestsPerSec / b.requestsPerSec) * 100) / 100;
  return `framework floor (the same answer from the smallest Nest + Express app, no auth, no broker): req/s ${Math.round(floor.requestsPerSec)}, p50 ms ${floor.latency.p50}, failures ${failures(floor)}, so ${of(floor, baseline)} of the baseline; the product is ${of(product, floor)} of the floor and ${of(product, baseline)} of the baseline; floor CPU ms per request: ${describeCpu(floorCpu)}`;
}

function row(mode: 'cluster' | 'embedded', compared: Compared, details: Record<string, unknown>, notes: string[]): ScenarioRow {
  const { product, baseline, floor, productCpu, baselineCpu, floorCpu } = compared;
  const target = TARGET[mode];
  const reference = target.of === 'floor' ? floor : baseline;
  const ratio = Math.round((product.requestsPerSec / reference.requestsPerSec) * 100) / 100;
  const clean = failures(product) === 0 && failures(baseline) === 0 && failures(floor) === 0;
  const measured = [...notes, floorNote(compared)];
  return {
    id: 'S1',
    mode,
    what: s1NoChangeSync.title,
    status: 'measured',
    product: figures(product),
    // The row's reference: the framework floor in cluster mode (the bare server is in the notes).
    baseline: figures(reference),
    ratio: { name: `req/s product / ${target.of}`, value: ratio },
    target: `>= ${target.ratio} of ${target.of === 'floor' ? "the framework floor's" : 'baseline'} req/s`,
    pass: clean && ratio >= target.ratio,
    valid: clean,
    notes: clean
      ? measured
      : [
          ...measured,
          `some requests failed, so the figures are not valid; first failures: ${[...product.failureSamples.map((text) => `product ${text}`), ...baseline.failureSamples.map((text) => `baseline ${text}`), ...floor.failureSamples.map((text) => `floor ${text}`)].slice(0, 4).join(' || ')}`,
        ],
    details: { ...details, product, baseline, floor, cpuMsPerRequest: { product: productCpu, baseline: baselineCpu, floor: floorCpu } },
  };
}
