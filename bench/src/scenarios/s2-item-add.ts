import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { postSync } from '../accounts';
import { loggedTaskInsert } from '../baseline/logged-task-insert';
import { CommitCounter } from '../commit-counter';
import { clusterCpuGroups, CpuMeter } from '../cpu';
import { percentile, timeRounds } from '../stats';
import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const COMMANDS = 100;

const ROUNDS = 20;
const WARMUP_ROUNDS = 2;
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
 * total request time; p99 of the request times. Baseline: `baselineInsert` below.
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
  let durations: number[];
  // The measured rounds on the monotonic clock in µs, the clock of the --cpu-prof profiles' timestamps: to cut a profile to them.
  let window: { fromUs: number; toUs: number };
  try {
    const before = await counter.settle();
    await meter.start();
    await otherMeter.start();
    const from = process.hrtime.bigint();
    durations = await timeRounds(ROUNDS, send);
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
  } finally {
    await counter.close();
  }
  const total = durations.reduce((sum, value) => sum + value, 0);
  const product = { 'commands/s': Math.round((COMMANDS * ROUNDS) / (total / 1000)), 'p50 ms': Math.round(percentile(durations, 50)), 'p99 ms': Math.round(percentile(durations, 99)), failures: failed, 'COMMITs/request': commits.perRequest };
  const baselineResult = await baselineInsert(cluster.databaseUrl, ROUNDS);
  const baseline = { 'commands/s': Math.round(baselineResult.commandsPerSec), 'p99 ms': Math.round(baselineResult.p99Ms * 10) / 10 };
  const ratio = Math.round((product['commands/s'] / baseline['commands/s']) * 100) / 100;
  const fairResult = await loggedTaskInsert(cluster.databaseUrl, COMMANDS, ROUNDS);
  const fairBaseline = { 'commands/s': Math.round(fairResult.commandsPerSec), 'p50 ms': Math.round(fairResult.p50Ms * 10) / 10, 'p99 ms': Math.round(fairResult.p99Ms * 10) / 10 };
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
      `${ROUNDS} requests of ${COMMANDS} item_add after ${WARMUP_ROUNDS} warm-up ones, one at a time; baseline: ${COMMANDS} INSERTs in one transaction with bare pg into a table shaped like a task row`,
      `CPU ms per request, from the first request until the system was at rest again (the pollers' resting CPU included): ${Object.entries(cpu).map(([name, ms]) => `${name} ${Math.round(ms * 10) / 10}`).join(', ')} (other services: ${Object.entries(cpuOfOthers).map(([name, ms]) => `${name} ${Math.round(ms * 10) / 10}`).join(', ')})`,
      `COMMITs per request: ${commits.perRequest} (pg_stat_database.xact_commit of the bench database from before the first request until the system was at rest again, ${commits.caughtUpS} s after the last answer, less the ${commits.idlePerSecond} commits/s of the pollers at rest): the request's own, the outbox relays' and every consumer's`,
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
      `fair baseline: ${COMMANDS} single-row INSERTs and one COMMIT with bare pg into a logged copy of sync.items (LIKE ... INCLUDING ALL: its columns, defaults, checks and 7 indexes) with foreign keys to copies of sync.users and sync.projects holding the rows referenced, and to itself; ${ROUNDS} rounds after ${Math.max(1, Math.floor(ROUNDS / 5))} warm-up ones`,
    ],
    details: { baseline: fairResult },
  };
  return [tempTableRow, fairRow];
}

/**
 * Baseline half: the same 100 rows inserted in one transaction with bare pg, one INSERT per
 * row as the engine runs one statement per command. Into a temporary table shaped like a task
 * row (TODO(#6): insert into sync.items itself once it exists, for the same indexes).
 */
export async function baselineInsert(databaseUrl: string, rounds: number): Promise<{ commandsPerSec: number; p99Ms: number }> {
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
    await timeRounds(Math.max(1, Math.floor(rounds / 5)), insertBatch);
    const durations = await timeRounds(rounds, insertBatch);
    const total = durations.reduce((sum, value) => sum + value, 0);
    return { commandsPerSec: (COMMANDS * rounds) / (total / 1000), p99Ms: percentile(durations, 99) };
  } finally {
    await client.end();
  }
}
