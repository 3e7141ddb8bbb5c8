import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type PrivateNats, type PrivateNatsCluster, startPrivateNats, startPrivateNatsCluster, waitFor } from '@doable/shared-testing';
import { streamNameFor } from '@doable/shared-transport';
import { createAccounts, postSync, waitForProfiles } from '../accounts';
import { type Cluster, startCluster } from '../cluster';
import { cpuMs } from '../cpu';
import { onCleanup } from '../lifecycle';
import { percentile } from '../stats';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

/** Writers at once: each one request of one `item_add` after another, as a client's edits. */
const WRITERS = 8;
/**
 * A guess made before measuring: the request path crosses a route between two servers when the
 * gateway and sync are connected to different ones, and each event is stored on three servers
 * instead of one, after a quorum's ack. Writes answer before their events are published (the
 * outbox), so the request rate should lose little.
 */
const TARGET_RATIO = 0.8;
/** How long the killed node stays down at least while the writers go on. */
const DOWN_MS = 5_000;
/** Slices per side: the writers alternate between the two systems this many times each. */
const SLICES = 4;

interface WriteFigures {
  readonly commands: number;
  readonly commandsPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Requests answered otherwise than `ok` (retried with the same uuid). */
  readonly retried: number;
  /** CPU of the NATS server(s) per acknowledged write. */
  readonly natsCpuMsPerWrite: number;
}

/**
 * S15 (issue #48), the first step past one machine for NATS: the cluster as deployed (one
 * process per service) twice, each over a NATS of its own: a single server with one copy of each
 * stream (R1), and a 3-node cluster with three (R3, NATS_REPLICAS=3, NATS_URL listing the
 * three). The same writers alternate between the two in slices (SLICES each, `--duration` in
 * all per side): the ratio of their writes/s, their latency and the NATS servers' CPU per write
 * are what R3 costs. Then, on the 3-node cluster,
 * the event stream's leader is killed with SIGKILL while the writers go on, restarted DOWN_MS
 * later and caught up: every acknowledged write must be stored once (0 lost, 0 duplicated),
 * and the outboxes drain. e2e/faults/nats-cluster.fault-spec.ts asserts the same and more
 * (webhooks, activity); this row keeps the figure in the bench's table.
 */
export const s15NatsCluster: Scenario = {
  id: 'S15',
  title: 'NATS as a 3-node cluster (R3) vs one server, and its stream leader killed under writers',
  target: `>= ${TARGET_RATIO} of one server's writes/s (a guess); 0 lost, 0 duplicated with a node killed`,
  run: measure,
};

/** The writers: each retries a command answered otherwise than `ok` with its uuid, as a client does. */
class Writers {
  private running = true;
  private readonly loops: Promise<void>[] = [];
  readonly acknowledged = new Map<string, string[]>();
  readonly latencies: number[] = [];
  retried = 0;

  constructor(
    private readonly gatewayUrl: string,
    private readonly tokens: readonly string[],
  ) {}

  start(tag: string): void {
    this.tokens.forEach((token, writer) => {
      const acked: string[] = [];
      this.acknowledged.set(token, acked);
      this.loops.push(this.loop(`${tag}${writer}`, token, acked));
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Writes acknowledged so far, all writers together. */
  get count(): number {
    return [...this.acknowledged.values()].reduce((sum, acked) => sum + acked.length, 0);
  }

  private async loop(tag: string, token: string, acked: string[]): Promise<void> {
    for (let n = 0; this.running; n++) {
      const content = `${tag}-${n}`;
      const command = { type: 'item_add', uuid: randomUUID(), temp_id: randomUUID(), args: { content } };
      for (;;) {
        const sentAt = performance.now();
        const answer = await postSync(this.gatewayUrl, token, { commands: [command] }, 30_000).catch(() => undefined);
        const status = answer?.status === 200 ? (answer.body['sync_status'] as Record<string, unknown> | undefined)?.[command.uuid] : undefined;
        if (status === 'ok') {
          this.latencies.push(performance.now() - sentAt);
          acked.push(content);
          break;
        }
        if (answer?.status === 200) throw new Error(`${content} refused: ${JSON.stringify(status)}`);
        this.retried++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

/** One system over `natsUrl` with its own writers' accounts. */
async function system(context: BenchContext, natsUrl: string, env: NodeJS.ProcessEnv): Promise<{ cluster: Cluster; tokens: string[] }> {
  const cluster = await startCluster({ natsUrl, env });
  const accounts = await createAccounts(cluster.databaseUrl, context.runId, WRITERS);
  await waitForProfiles(
    cluster.databaseUrl,
    accounts.map((account) => account.userId),
  );
  return { cluster, tokens: accounts.map((account) => account.token) };
}

/** One system under test: its gateway, its writers' tokens and its NATS servers' pids. */
interface Side {
  readonly cluster: Cluster;
  readonly tokens: readonly string[];
  readonly natsPids: () => readonly (number | undefined)[];
  readonly totals: { commands: number; seconds: number; cpuMs: number; retried: number; latencies: number[] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function natsCpuMs(side: Side): Promise<number> {
  const each = await Promise.all(side.natsPids().map((pid) => (pid ? cpuMs(pid) : Promise.resolve(undefined))));
  return each.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
}

/** The writers on one side for `seconds`: what they acknowledged within it is added to its totals (unless warming up). */
async function slice(side: Side, seconds: number, tag: string, counted: boolean): Promise<void> {
  const writers = new Writers(side.cluster.gatewayUrl, side.tokens);
  const cpuBefore = await natsCpuMs(side);
  const startedAt = performance.now();
  writers.start(tag);
  await sleep(seconds * 1000);
  const commands = writers.count;
  const elapsedS = (performance.now() - startedAt) / 1000;
  const cpu = (await natsCpuMs(side)) - cpuBefore;
  const latencies = writers.latencies.slice(0, commands);
  await writers.stop();
  if (!counted) return;
  side.totals.commands += commands;
  side.totals.seconds += elapsedS;
  side.totals.cpuMs += cpu;
  side.totals.retried += writers.retried;
  side.totals.latencies.push(...latencies);
}

function figuresOf(side: Side): WriteFigures {
  const { commands, seconds, cpuMs: cpu, retried, latencies } = side.totals;
  return {
    commands,
    commandsPerS: Math.round(commands / Math.max(0.001, seconds)),
    p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
    p99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
    retried,
    natsCpuMsPerWrite: Math.round((cpu / Math.max(1, commands)) * 100) / 100,
  };
}

/** Every writer's tasks as stored, against what each was told was written. */
async function countStored(databaseUrl: string, writers: Writers): Promise<{ acknowledged: number; lost: number; duplicated: number; unacknowledged: number; unpublished: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ content: string; n: number }>("SELECT content, count(*)::int AS n FROM sync.items WHERE content LIKE 'kill%' GROUP BY content");
    const stored = new Map(rows.map((row) => [row.content, row.n]));
    const acked = [...writers.acknowledged.values()].flat();
    const ackedSet = new Set(acked);
    let unpublished = -1;
    await waitFor(async () => {
      const schemas = (await client.query<{ table_schema: string }>("SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'")).rows;
      let waiting = 0;
      for (const { table_schema: schema } of schemas) waiting += (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".outbox WHERE published_at IS NULL`)).rows[0].n;
      unpublished = waiting;
      return waiting === 0;
    }, 'every outbox to drain', 60_000).catch(() => undefined);
    return {
      acknowledged: acked.length,
      lost: acked.filter((content) => !stored.has(content)).length,
      duplicated: [...stored.values()].filter((count) => count > 1).length,
      unacknowledged: [...stored.keys()].filter((content) => !ackedSet.has(content)).length,
      unpublished,
    };
  } finally {
    await client.end();
  }
}

async function measure(context: BenchContext): Promise<ScenarioRow[]> {
  const { durationS, warmupS } = context.options;
  // Both systems up at once, the writers alternating between them in slices (as S2 and S3
  // alternate rounds): a shared machine's load then falls on both sides alike.
  const single: PrivateNats = await startPrivateNats('bench-s15-single');
  const removeSingle = onCleanup('S15 single NATS server', () => single.destroy());
  const nats: PrivateNatsCluster = await startPrivateNatsCluster('bench-s15');
  const removeNats = onCleanup('S15 NATS cluster', () => nats.destroy());
  const emptyTotals = () => ({ commands: 0, seconds: 0, cpuMs: 0, retried: 0, latencies: [] as number[] });
  let oneSystem: { cluster: Cluster; tokens: string[] } | undefined;
  let threeSystem: { cluster: Cluster; tokens: string[] } | undefined;
  try {
    oneSystem = await system(context, single.url, {});
    threeSystem = await system(context, nats.url, { NATS_REPLICAS: '3' });
    const oneSide: Side = { ...oneSystem, natsPids: () => [single.pid], totals: emptyTotals() };
    const threeSide: Side = { ...threeSystem, natsPids: () => nats.nodes.map((node) => node.pid), totals: emptyTotals() };
    await slice(oneSide, warmupS, 'warm', false);
    await slice(threeSide, warmupS, 'warm', false);
    for (let round = 0; round < SLICES; round++) {
      const order = round % 2 === 0 ? [oneSide, threeSide] : [threeSide, oneSide];
      for (const side of order) await slice(side, durationS / SLICES, `load${round}-`, true);
    }
    const one = figuresOf(oneSide);
    const three = figuresOf(threeSide);
    // The single server's system is done: the kill runs with the machine to the cluster's.
    await oneSystem.cluster.close();
    oneSystem = undefined;
    await removeSingle();

    const { cluster, tokens } = threeSystem;
    // The stream leader killed under the writers, then back and caught up.
    const stream = streamNameFor(cluster.subjectPrefix);
    const writers = new Writers(cluster.gatewayUrl, tokens);
    writers.start('kill');
    await waitFor(() => writers.count >= 2 * WRITERS, 'writes before the kill', 60_000);
    const leader = await nats.leaderOf(stream);
    const atKill = writers.count;
    const killedAt = performance.now();
    await leader.stop('SIGKILL');
    const newLeader = await waitFor(async () => {
      const now = await nats.leaderOf(stream);
      return now.name !== leader.name ? now : undefined;
    }, 'a new stream leader', 60_000);
    const electedS = (performance.now() - killedAt) / 1000;
    // Down at least DOWN_MS, and until writes went on without it.
    await waitFor(() => writers.count >= atKill + 2 * WRITERS, 'writes with the node down', 60_000);
    await sleep(Math.max(0, DOWN_MS - (performance.now() - killedAt)));
    const whileDown = writers.count - atKill;
    const downS = (performance.now() - killedAt) / 1000;
    await leader.start();
    const restartedAt = performance.now();
    await waitFor(() => nats.streamCurrent(stream, 3), 'the restarted node to catch up', 120_000);
    const caughtUpS = (performance.now() - restartedAt) / 1000;
    const atRestart = writers.count;
    await waitFor(() => writers.count >= atRestart + 2 * WRITERS, 'writes after the restart', 60_000);
    await writers.stop();
    const kill = await countStored(cluster.databaseUrl, writers);

    const ratio = Math.round((three.commandsPerS / Math.max(1, one.commandsPerS)) * 100) / 100;
    const clean = kill.lost === 0 && kill.duplicated === 0 && kill.unacknowledged === 0 && kill.unpublished === 0;
    const seconds = (value: number) => Math.round(value * 100) / 100;
    return [
      {
        id: 'S15',
        mode: 'cluster',
        what: `${WRITERS} writers of one item_add each: 3-node NATS (R3) vs one server (R1)`,
        status: 'measured',
        product: { 'writes/s': three.commandsPerS, 'p50 ms': three.p50Ms, 'p99 ms': three.p99Ms, 'nats CPU ms/write': three.natsCpuMsPerWrite },
        baseline: { 'writes/s': one.commandsPerS, 'p50 ms': one.p50Ms, 'p99 ms': one.p99Ms, 'nats CPU ms/write': one.natsCpuMsPerWrite },
        ratio: { name: 'R3 / R1 writes/s', value: ratio },
        target: `>= ${TARGET_RATIO}`,
        pass: ratio >= TARGET_RATIO,
        valid: one.retried === 0 && three.retried === 0,
        notes: [
          `NATS servers' CPU per write: ${three.natsCpuMsPerWrite} ms over three servers vs ${one.natsCpuMsPerWrite} ms on one (${seconds(three.natsCpuMsPerWrite / Math.max(0.01, one.natsCpuMsPerWrite))}x)`,
          ...(one.retried + three.retried > 0 ? [`requests retried: ${one.retried} on R1, ${three.retried} on R3`] : []),
        ],
        details: { one, three },
      },
      {
        id: 'S15',
        mode: 'cluster',
        what: `3-node NATS (R3): the event stream's leader killed (SIGKILL) under ${WRITERS} writers, back after ${DOWN_MS / 1000} s or more`,
        status: 'measured',
        product: { acknowledged: kill.acknowledged, lost: kill.lost, duplicated: kill.duplicated, 'new leader s': seconds(electedS), 'writes while down': whileDown, 'down s': seconds(downS), 'catch-up s': seconds(caughtUpS) },
        ratio: { name: 'lost + duplicated', value: kill.lost + kill.duplicated },
        target: '0 lost, 0 duplicated',
        pass: clean,
        valid: true,
        notes: [
          `killed ${leader.name}; ${newLeader.name} led the stream ${seconds(electedS)} s later; ${whileDown} writes acknowledged in the ${seconds(downS)} s it was down; ${writers.retried} requests retried with their uuid`,
          `unacknowledged writes stored: ${kill.unacknowledged}; events left in outboxes: ${kill.unpublished}`,
        ],
        details: { kill, retried: writers.retried, killed: leader.name, newLeader: newLeader.name, downS: seconds(downS) },
      },
    ];
  } finally {
    await oneSystem?.cluster.close();
    await threeSystem?.cluster.close();
    await removeSingle();
    await removeNats();
  }
}
