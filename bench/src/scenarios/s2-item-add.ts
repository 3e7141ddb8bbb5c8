import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { postSync } from '../accounts';
import { type InsertBaseline, openLoggedTaskInsert } from '../baseline/logged-task-insert';
import { CommitCounter } from '../commit-counter';
import { clusterCpuGroups, CpuMeter } from '../cpu';
import { percentile, timeRounds } from '../stats';
import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const COMMANDS = 100;

const ROUNDS = 20;
const WARMUP_ROUNDS = 2;
/** The product's rounds and each baseline's run in this many blocks in turn (3 x 20 + 2 requests: S2 has 100 users of its own). */
const BLOCKS = 3;
const BASELINE_WARMUP_ROUNDS = 4;
/** Issue #18: hold what the batched writes reached (1.1 in its run): a request of 100 adds as fast as 100 bare INSERTs. */
const TARGET_RATIO = 1.0;
/** Issue #31: against a durable write of the same rows (a logged copy of sync.items, its indexes and keys, one COMMIT). */
const FAIR_TARGET_RATIO = 0.8;
/** S6 uses the first 100 users; S2 takes its own from the second half, one per round. */
const FIRST_USER = 100;

/**
 * S2 models a client flushing a queue of offline edits: one Sync request with 100 `item_add`
 * commands (fresh uuid and temp_id each), sent one after another from one client, each round
 * to a different user (a free plan holds 300 tasks per project). commands/s = 100 x rounds /
 * total request time; p99 of the request times. Baselines: `openTempTableInsert` below, and the fair one (logged-task-insert.ts).
 */
export const s2ItemAdd: Scenario = {
  id: 'S2',
  title: `one request with ${COMMANDS} item_add commands`,
  target: `>= ${TARGET_RATIO} of baseline commands/s`,
  run: measure,
};

/**
 * Two rows over one product measurement: against the temporary table (the row kept from issue
 * #6, target 1.0), and against the fair baseline of issue #31 (`loggedTaskInsert`: a logged copy
 * of sync.items with its indexes and foreign keys, one COMMIT; target 0.8).
 */
async function measure(context: BenchContext): Promise<ScenarioRow[]> {
  const { cluster, users } = await context.cluster();
  const batch = (round: number) =>
    Array.from({ length: COMMANDS }, (_, index) => ({ type: 'item_add', uuid: randomUUID(), temp_id: randomUUID(), args: { content: `Bench task ${round}.${index}` } }));
  let round = 0;
  let failed = 0;
  let firstFailure = '';
  const send = async () => {
    const user = users[FIRST_USER + (round++ % (users.length - FIRST_USER))];
    const commands = batch(round);
    const answer = await postSync(cluster.gatewayUrl, user.token, { commands });
    const status = answer.body['sync_status'] as Record<string, unknown> | undefined;
    const notOk = commands.filter((command) => status?.[command.uuid] !== 'ok').length;
    if (answer.status !== 200 || notOk > 0) {
      failed += answer.status !== 200 ? COMMANDS : notOk;
      firstFailure ||= `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
    }
  };
  await timeRounds(WARMUP_ROUNDS, send);
  failed = 0;
  // Issue #48: what the requests cost in COMMITs, theirs and everything their events set off.
  const counter = await CommitCounter.open(cluster.databaseUrl);
  // What the requests cost in CPU, by process, over the same span as the COMMITs: theirs and their events' consumers'.
  const meter = new CpuMeter(clusterCpuGroups(cluster, TEST_POSTGRES_ADMIN_URL));
  // The same span for each of the other services apart (webhooks' and uploads' consumers against the pollers of the rest).
  const others = [...cluster.children.entries()].filter(([service]) => !['gateway', 'sync', 'rest'].includes(service));
  const otherMeter = new CpuMeter(() => Promise.resolve(new Map(others.map(([service, child]) => [service, [child.pid]]))));
  let cpu: Record<string, number>;
  let cpuOfOthers: Record<string, number>;
  let commits: { perRequest: number; idlePerSecond: number; caughtUpS: number };
  const durations: number[] = [];
  const tempDurations: number[] = [];
  const fairDurations: number[] = [];
  // The measured rounds on the monotonic clock in µs, the clock of the --cpu-prof profiles' timestamps: to cut a profile to them.
  let window: { fromUs: number; toUs: number };
  const temp = await openTempTableInsert(cluster.databaseUrl, BASELINE_WARMUP_ROUNDS);
  const fair = await openLoggedTaskInsert(cluster.databaseUrl, COMMANDS, BASELINE_WARMUP_ROUNDS);
  try {
    const before = await counter.settle();
    await meter.start();
    await otherMeter.start();
    const from = process.hrtime.bigint();
    durations.push(...(await timeRounds(ROUNDS, send)));
    window = { fromUs: Number(from / 1000n), toUs: Number(process.hrtime.bigint() / 1000n) };
    const answered = performance.now();
    const after = await counter.settle();
    cpu = await meter.perRequest(ROUNDS);
    cpuOfOthers = await otherMeter.perRequest(ROUNDS);
    commits = {
      perRequest: Math.round((CommitCounter.workBetween(before, after) / ROUNDS) * 10) / 10,
      idlePerSecond: Math.round(after.idlePerSecond * 10) / 10,
      caughtUpS: Math.round((after.at - answered) / 100) / 10,
    };
    // Block by block in turn, each baseline once the system is at rest: a machine that drifts
    // between blocks (a shared VM does, by half or double) falls on the product and the baselines alike.
    for (let block = 1; ; block++) {
      tempDurations.push(...(await temp.run(ROUNDS)));
      fairDurations.push(...(await fair.run(ROUNDS)));
      if (block === BLOCKS) break;
      durations.push(...(await timeRounds(ROUNDS, send)));
      await counter.settle();
    }
  } finally {
    await Promise.all([counter.close(), temp.close(), fair.close()]);
  }
  const measured = roundsSummary(durations);
  const product = { 'commands/s': measured.commandsPerSec, 'p50 ms': Math.round(measured.p50Ms), 'p99 ms': Math.round(measured.p99Ms), failures: failed, 'COMMITs/request': commits.perRequest };
  const baselineResult = roundsSummary(tempDurations);
  const baseline = { 'commands/s': baselineResult.commandsPerSec, 'p99 ms': Math.round(baselineResult.p99Ms * 10) / 10 };
  const ratio = Math.round((product['commands/s'] / baseline['commands/s']) * 100) / 100;
  const fairResult = roundsSummary(fairDurations);
  const fairBaseline = { 'commands/s': fairResult.commandsPerSec, 'p50 ms': Math.round(fairResult.p50Ms * 10) / 10, 'p99 ms': Math.round(fairResult.p99Ms * 10) / 10 };
  const fairRatio = Math.round((product['commands/s'] / fairBaseline['commands/s']) * 100) / 100;
  const tempTableRow: ScenarioRow = {
    id: 'S2',
    mode: 'cluster',
    what: s2ItemAdd.title,
    status: 'measured',
    product,
    baseline,
    ratio: { name: 'commands/s product / baseline', value: ratio },
    target: s2ItemAdd.target,
    pass: failed === 0 && ratio >= TARGET_RATIO,
    valid: failed === 0,
    notes: [
      `${BLOCKS} blocks of ${ROUNDS} requests of ${COMMANDS} item_add after ${WARMUP_ROUNDS} warm-up ones, one at a time, each block followed by ${ROUNDS} rounds of each baseline once the system is at rest; baseline: ${COMMANDS} INSERTs in one transaction with bare pg into a table shaped like a task row`,
      `CPU ms per request, over the first block, from its first request until the system was at rest again (the pollers' resting CPU included): ${Object.entries(cpu).map(([name, ms]) => `${name} ${Math.round(ms * 10) / 10}`).join(', ')} (other services: ${Object.entries(cpuOfOthers).map(([name, ms]) => `${name} ${Math.round(ms * 10) / 10}`).join(', ')})`,
      `COMMITs per request: ${commits.perRequest} (pg_stat_database.xact_commit of the bench database over the first block, from before its first request until the system was at rest again, ${commits.caughtUpS} s after the last answer, less the ${commits.idlePerSecond} commits/s of the pollers at rest): the request's own, the outbox relays' and every consumer's`,
      ...(failed > 0 ? [`${failed} commands failed, so the figures are not valid; first: ${firstFailure}`] : []),
    ],
    details: { durationsMs: durations, baseline: baselineResult, commits, cpu, cpuOfOthers, window },
  };
  const fairRow: ScenarioRow = {
    id: 'S2',
    mode: 'cluster',
    what: `${s2ItemAdd.title}, against a durable write of the same rows`,
    status: 'measured',
    product,
    baseline: fairBaseline,
    ratio: { name: 'commands/s product / fair baseline', value: fairRatio },
    target: `>= ${FAIR_TARGET_RATIO} of the fair baseline's commands/s`,
    pass: failed === 0 && fairRatio >= FAIR_TARGET_RATIO,
    valid: failed === 0,
    notes: [
      `fair baseline: ${COMMANDS} single-row INSERTs and one COMMIT with bare pg into a logged copy of sync.items (LIKE ... INCLUDING ALL: its columns, defaults, checks and 7 indexes) with foreign keys to copies of sync.users and sync.projects holding the rows referenced, and to itself; ${BLOCKS} blocks of ${ROUNDS} rounds after ${BASELINE_WARMUP_ROUNDS} warm-up ones, each after a block of the product's`,
    ],
    details: { baseline: fairResult, durationsMs: fairDurations },
  };
  return [tempTableRow, fairRow];
}

/** commands/s over the rounds' whole time, and their p50 and p99 (ms). */
function roundsSummary(durations: readonly number[]): { commandsPerSec: number; p50Ms: number; p99Ms: number } {
  const total = durations.reduce((sum, value) => sum + value, 0);
  return { commandsPerSec: Math.round((COMMANDS * durations.length) / (total / 1000)), p50Ms: percentile(durations, 50), p99Ms: percentile(durations, 99) };
}

/**
 * Baseline half: the same 100 rows inserted in one transaction with bare pg, one INSERT per
 * row as the engine runs one statement per command. Into a temporary table shaped like a task
 * row (the fair baseline, logged-task-insert.ts, is the one with sync.items' indexes and keys).
 */
async function openTempTableInsert(databaseUrl: string, warmupRounds: number): Promise<InsertBaseline> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE TEMPORARY TABLE bench_items (
      id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, owner_id bigint NOT NULL, project_id bigint NOT NULL,
      content text NOT NULL, description text NOT NULL DEFAULT '', priority smallint NOT NULL DEFAULT 1,
      child_order integer NOT NULL DEFAULT 0, version bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    await client.query('CREATE INDEX ON bench_items (owner_id, version)');
    const insertBatch = async () => {
      await client.query('BEGIN');
      for (let index = 0; index < COMMANDS; index++) {
        await client.query('INSERT INTO bench_items (owner_id, project_id, content, child_order, version) VALUES ($1, $2, $3, $4, $5)', [1, 1, `Task ${index}`, index, 1]);
      }
      await client.query('COMMIT');
    };
    await timeRounds(warmupRounds, insertBatch);
    return { run: (rounds) => timeRounds(rounds, insertBatch), close: () => client.end() };
  } catch (error) {
    await client.end();
    throw error;
  }
}
