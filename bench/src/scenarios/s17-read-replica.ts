import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { gatewayCounter, startTestStandby, TEST_POSTGRES_ADMIN_URL, type TestStandby } from '@doable/shared-testing';
import { Client } from 'pg';
import { type BenchUser, createAccounts, initialFullSyncs, postSync, waitForProfiles } from '../accounts';
import type { Cluster } from '../cluster';
import { backendPids, clusterCpuGroups, type CpuGroups, CpuMeter } from '../cpu';
import { onCleanup } from '../lifecycle';
import { until } from '../poll';
import { percentile } from '../stats';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const SESSIONS = 16;
const ITEMS_EACH = 100;
/** Every WRITE_EVERY-th request of a session is an item_add, followed at once by a read that must carry it. */
const WRITE_EVERY = 5;
/** PostgreSQL 15 flushes a backend's counters to pg_stat_database within its idle interval (10 s): a reading waits this long after the work. */
const STATS_SETTLE_MS = 11_000;
const READS = ['full-sync', 'rest-list', 'incremental'] as const;
type ReadKind = (typeof READS)[number];

/**
 * S17, reads from a PostgreSQL streaming replica (issue #48, docs/operations/postgres-replica.md):
 * a read-heavy day with writes interleaved, with every read on the primary, then with sync given
 * a hot standby of the bench's server (pg_basebackup, as the integration spec makes it) through
 * DATABASE_REPLICA_URL, then on the primary again (the baseline is the mean of the two runs, so a
 * machine whose other load changed meanwhile does not decide the ratio). 16 sessions, one user
 * each (100 tasks), send one request after another: full syncs, REST v2 task lists and
 * incremental syncs in turn, and every 5th request an item_add followed at once by one of those
 * reads, which must carry the task just added: a read without it is a stale read.
 */
export const s17ReadReplica: Scenario = {
  id: 'S17',
  title: `read replica: a read-heavy mix (${SESSIONS} sessions, an item_add every ${WRITE_EVERY}th request, each read back at once) on primary + standby vs the primary alone`,
  target: '0 stale reads; 0 failed; the standby answers most of the reads it may (the req/s ratio is reported: on 2 shared cores the standby takes CPU from the same machine)',
  run: async (context) => [await measure(context)],
};

interface Phase {
  readonly requests: number;
  readonly reads: number;
  readonly writes: number;
  /** Reads right after the session's own write that did not carry it. */
  readonly stale: number;
  readonly failed: number;
  readonly requestsPerSec: number;
  readonly p50: number;
  readonly p99: number;
  /** sync's doable_db_reads_total during the run, by `server/why`. */
  readonly served: Record<string, number>;
  /** Buffer accesses (pg_stat_database blks_hit + blks_read) of the bench database per request, on each server. */
  readonly primaryBuffersPerRequest: number;
  readonly standbyBuffersPerRequest: number;
  /** CPU ms per request of each process group (clusterCpuGroups, and the standby's server processes). */
  readonly cpu: Record<string, number>;
}

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const loadBefore = loadavg()[0];
  const standby = await startTestStandby();
  const removeStandby = onCleanup('the S17 standby', () => standby.stop());
  try {
    const users = await seededUsers(cluster, `${context.runId}-s17`);
    const durationS = Math.max(context.options.durationS * 2, 20);
    const databaseName = new URL(cluster.databaseUrl).pathname.slice(1);
    const alone = await phase(cluster, standby, databaseName, users, durationS);
    await cluster.restartService('sync', { DATABASE_REPLICA_URL: standby.urlOf(databaseName) });
    await until(async () => ((await gatewayCounter(cluster.serviceUrls.get('sync')!, 'doable_db_standby_usable')) === 1 ? true : undefined), 'S17: sync to read from the standby', 60_000, 200);
    const withStandby = await phase(cluster, standby, databaseName, users, durationS);
    await cluster.restartService('sync', {});
    const aloneAgain = await phase(cluster, standby, databaseName, users, durationS);
    const loadAfter = loadavg()[0];

    const baselineRate = (alone.requestsPerSec + aloneAgain.requestsPerSec) / 2;
    const ratio = Math.round((withStandby.requestsPerSec / baselineRate) * 100) / 100;
    const standbyReads = sum(withStandby.served, 'standby/');
    const placed = standbyReads + sum(withStandby.served, 'primary/');
    const share = placed === 0 ? 0 : Math.round((standbyReads / placed) * 100) / 100;
    const stale = alone.stale + withStandby.stale + aloneAgain.stale;
    const failed = alone.failed + withStandby.failed + aloneAgain.failed;
    return {
      id: 'S17',
      mode: 'cluster',
      what: s17ReadReplica.title,
      status: 'measured',
      product: figures(withStandby),
      baseline: figures({ ...alone, requestsPerSec: baselineRate }),
      ratio: { name: 'req/s with the standby / alone', value: ratio },
      target: s17ReadReplica.target,
      pass: stale === 0 && failed === 0 && share >= 0.5,
      valid: failed === 0,
      notes: [
        `${durationS} s per run; the primary alone before and after (${Math.round(alone.requestsPerSec)} and ${Math.round(aloneAgain.requestsPerSec)} req/s), the standby between; load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end`,
        `with the standby: it answered ${standbyReads} of the ${placed} reads sync may place (${Math.round(share * 100)}%): ${describe(withStandby.served)}`,
        `buffer accesses per request on the primary: ${alone.primaryBuffersPerRequest} alone, ${withStandby.primaryBuffersPerRequest} with the standby (which did ${withStandby.standbyBuffersPerRequest})`,
        `CPU ms per request, alone: ${describeCpu(alone.cpu)}; with the standby: ${describeCpu(withStandby.cpu)}; alone again: ${describeCpu(aloneAgain.cpu)}`,
        `stale reads: ${alone.stale} / ${withStandby.stale} / ${aloneAgain.stale} of ${alone.writes} / ${withStandby.writes} / ${aloneAgain.writes} reads right after their session's write`,
      ],
      details: { alone, withStandby, aloneAgain, loadBefore, loadAfter },
    };
  } finally {
    await removeStandby();
  }
}

function figures(phase: Phase): Record<string, number> {
  return {
    'req/s': Math.round(phase.requestsPerSec),
    'p50 ms': phase.p50,
    'p99 ms': phase.p99,
    reads: phase.reads,
    writes: phase.writes,
    'stale reads': phase.stale,
    failed: phase.failed,
    'primary buffers/request': phase.primaryBuffersPerRequest,
    'CPU ms/request': phase.cpu['total'] ?? Number.NaN,
  };
}

const sum = (counts: Record<string, number>, prefix: string) => Object.entries(counts).reduce((total, [key, count]) => total + (key.startsWith(prefix) ? count : 0), 0);
const describeCpu = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([group, ms]) => `${group} ${ms}`)
    .join(', ');
const describe = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([key, count]) => `${key} ${count}`)
    .join(', ');

/** The sessions' users, each with ITEMS_EACH tasks, so every read is a list of a hundred-odd tasks. */
async function seededUsers(cluster: Cluster, runId: string): Promise<BenchUser[]> {
  const accounts = await createAccounts(cluster.databaseUrl, runId, SESSIONS);
  await waitForProfiles(cluster.databaseUrl, accounts.map((account) => account.userId));
  for (const account of accounts) {
    const commands = Array.from({ length: ITEMS_EACH }, (_, index) => ({ type: 'item_add', uuid: randomUUID(), temp_id: randomUUID(), args: { content: `seeded ${index}` } }));
    const answer = await postSync(cluster.gatewayUrl, account.token, { commands }, 60_000);
    if (answer.status !== 200) throw new Error(`S17: seeding user ${account.userId} answered ${answer.status}`);
  }
  return initialFullSyncs(cluster.gatewayUrl, accounts);
}

async function phase(cluster: Cluster, standby: TestStandby, databaseName: string, users: readonly BenchUser[], durationS: number): Promise<Phase> {
  const syncUrl = cluster.serviceUrls.get('sync')!;
  const servedBefore = await readsServed(syncUrl);
  await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
  const buffersBefore = { primary: await buffers(cluster.databaseUrl), standby: await buffers(standby.urlOf(databaseName)) };
  const latencies: number[] = [];
  const tally = { reads: 0, writes: 0, stale: 0, failed: 0 };
  const meter = new CpuMeter(cpuGroups(cluster, standby, databaseName));
  await meter.start();
  const started = performance.now();
  const deadline = started + durationS * 1000;
  await Promise.all(users.map((user) => session(cluster.gatewayUrl, user, deadline, latencies, tally)));
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = await meter.perRequest(latencies.length);
  const served = await readsServed(syncUrl);
  await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
  const buffersAfter = { primary: await buffers(cluster.databaseUrl), standby: await buffers(standby.urlOf(databaseName)) };
  const requests = latencies.length;
  const perRequest = (before: number, after: number) => Math.round((after - before) / Math.max(1, requests));
  return {
    requests,
    ...tally,
    requestsPerSec: requests / elapsedS,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    served: Object.fromEntries(Object.entries(served).map(([key, count]) => [key, count - (servedBefore[key] ?? 0)])),
    primaryBuffersPerRequest: perRequest(buffersBefore.primary, buffersAfter.primary),
    standbyBuffersPerRequest: perRequest(buffersBefore.standby, buffersAfter.standby),
    cpu: { ...cpu, total: Math.round(Object.values(cpu).reduce((total, ms) => total + ms, 0) * 100) / 100 },
  };
}

/**
 * The cluster's process groups (the primary's backends of the bench database among them) and the
 * standby's: its backends of that database and the processes that receive and replay the log.
 */
function cpuGroups(cluster: Cluster, standby: TestStandby, databaseName: string): () => Promise<CpuGroups> {
  const clusterGroups = clusterCpuGroups(cluster, TEST_POSTGRES_ADMIN_URL);
  return async () => {
    const groups = new Map(await clusterGroups());
    const replication = await standby.query<{ pid: number }>('postgres', `SELECT pid FROM pg_stat_activity WHERE backend_type IN ('startup', 'walreceiver')`).catch(() => []);
    groups.set('standby', [...(await backendPids(standby.urlOf(databaseName), standby.urlOf('postgres')).catch(() => [])), ...replication.map((row) => row.pid)]);
    return groups;
  };
}

/** One client: requests one after another until the deadline; every WRITE_EVERY-th an item_add read back at once. */
async function session(url: string, user: BenchUser, deadline: number, latencies: number[], tally: { reads: number; writes: number; stale: number; failed: number }): Promise<void> {
  let syncToken = user.syncToken;
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      latencies.push(performance.now() - started);
    }
  };
  const read = async (kind: ReadKind): Promise<string[] | undefined> => {
    tally.reads++;
    if (kind === 'rest-list') {
      const response = await timed(() => fetch(new URL('/rest/v2/tasks', url), { headers: { authorization: `Bearer ${user.token}` }, signal: AbortSignal.timeout(30_000) }));
      if (response.status !== 200) return undefined;
      return ((await response.json()) as Array<{ content: string }>).map((task) => task.content);
    }
    const answer = await timed(() => postSync(url, user.token, { sync_token: kind === 'full-sync' ? '*' : syncToken, resource_types: ['items', 'projects'] }, 30_000));
    if (answer.status !== 200 || typeof answer.body['sync_token'] !== 'string') return undefined;
    if (kind === 'incremental') syncToken = answer.body['sync_token'];
    return ((answer.body['items'] as Array<{ content: string }> | undefined) ?? []).map((item) => item.content);
  };
  for (let request = 1; performance.now() < deadline; request++) {
    if (request % WRITE_EVERY !== 0) {
      if ((await read(READS[request % READS.length])) === undefined) tally.failed++;
      continue;
    }
    const content = `s17 ${randomUUID()}`;
    const uuid = randomUUID();
    const written = await timed(() => postSync(url, user.token, { commands: [{ type: 'item_add', uuid, temp_id: uuid, args: { content } }] }, 30_000));
    if (written.status !== 200 || (written.body['sync_status'] as Record<string, unknown> | undefined)?.[uuid] !== 'ok') {
      tally.failed++;
      continue;
    }
    tally.writes++;
    const seen = await read(READS[(request / WRITE_EVERY) % READS.length]);
    if (seen === undefined) tally.failed++;
    else if (!seen.includes(content)) tally.stale++;
  }
}

/** sync's doable_db_reads_total by `server/why` (empty without a read replica: nothing placed). */
async function readsServed(syncUrl: string): Promise<Record<string, number>> {
  const text = await fetch(new URL('/metrics', syncUrl), { signal: AbortSignal.timeout(5_000) }).then((response) => response.text());
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^doable_db_reads_total\{([^}]*)\} ([0-9.e+-]+)$/gm)) {
    const server = /server="([^"]+)"/.exec(match[1])?.[1];
    const why = /why="([^"]+)"/.exec(match[1])?.[1];
    if (server && why) counts[`${server}/${why}`] = Number(match[2]);
  }
  return counts;
}

/** blks_hit + blks_read of the database on one server (each server keeps its own counts). */
async function buffers(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT (blks_hit + blks_read)::text AS n FROM pg_stat_database WHERE datname = current_database()');
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}
