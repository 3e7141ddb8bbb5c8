import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type BenchAccount, createAccounts, postSync, waitForProfiles } from '../accounts';
import { createLargeAccount } from '../large-accounts';
import { percentile } from '../stats';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const COMMANDS = 10;
const ROUNDS = 30;
const WARMUP_ROUNDS = 3;
/** The plan check counts the project's open tasks: it must stay a small part of a write. */
const TARGET_RATIO = 1.3;
/** Open tasks already in the full project (a roomy plan: the bench catalogue's max_tasks is 1,000,000). */
const OPEN_TASKS = 5_000;

/**
 * S9: the cost of the plan limit on writes. Every task added is checked against the project
 * owner's max_tasks, which counts the project's open tasks. Two accounts on the bench plan
 * alternate one request of 10 item_add each: one into a project already holding 5,000 open
 * tasks, one into an empty project (the baseline). The ratio shows whether adding a task grows
 * with the size of the project it goes into (it must stay near 1).
 */
export const s9PlanLimitAdd: Scenario = {
  id: 'S9',
  title: `plan limits: ${COMMANDS} item_add into a project of ${OPEN_TASKS.toLocaleString('en')} open tasks vs an empty one`,
  target: `<= ${TARGET_RATIO}x the empty project`,
  run: async (context) => [await measure(context)],
};

interface Target {
  readonly name: string;
  readonly account: BenchAccount;
  readonly projectId: string;
  readonly durations: number[];
  failures: number;
  firstFailure: string;
}

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const full = await createLargeAccount(cluster.databaseUrl, `${context.runId}-s9f`, { projects: 1, sectionsPerProject: 0, tasks: OPEN_TASKS, notes: 0, labels: 0 });
  const [light] = await createAccounts(cluster.databaseUrl, `${context.runId}-s9e`, 1);
  await waitForProfiles(cluster.databaseUrl, [light.userId]);
  const targets = [
    { name: 'full', account: full, projectId: await onlyProject(cluster.databaseUrl, full.userId), durations: [], failures: 0, firstFailure: '' },
    { name: 'empty', account: light, projectId: await newProject(cluster.gatewayUrl, light), durations: [], failures: 0, firstFailure: '' },
  ] satisfies Target[];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const target of targets) await addBatch(cluster.gatewayUrl, target, round, round >= WARMUP_ROUNDS);
  }
  const [fullTarget, emptyTarget] = targets;
  const figures = (target: Target) => ({ 'p50 ms': round1(percentile(target.durations, 50)), 'p99 ms': round1(percentile(target.durations, 99)), failures: target.failures });
  const failures = fullTarget.failures + emptyTarget.failures;
  const ratio = Math.round((percentile(fullTarget.durations, 50) / percentile(emptyTarget.durations, 50)) * 100) / 100;
  return {
    id: 'S9',
    mode: 'cluster',
    what: s9PlanLimitAdd.title,
    status: 'measured',
    product: { 'open tasks in the project': OPEN_TASKS, ...figures(fullTarget) },
    baseline: { 'open tasks in the project': 0, ...figures(emptyTarget) },
    ratio: { name: 'p50 request of 10 item_add, full project / empty project', value: ratio },
    target: s9PlanLimitAdd.target,
    pass: failures === 0 && ratio <= TARGET_RATIO,
    valid: failures === 0,
    notes: [
      `${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up ones, alternating accounts, one request at a time; the full project seeded in bulk SQL in ${full.seedS} s`,
      ...targets.filter((target) => target.failures > 0).map((target) => `${target.failures} requests into the ${target.name} project failed, so the figures are not valid; first: ${target.firstFailure}`),
    ],
    details: { fullDurationsMs: fullTarget.durations, emptyDurationsMs: emptyTarget.durations },
  };
}

async function onlyProject(databaseUrl: string, userId: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id::text FROM sync.projects WHERE owner_id = $1 AND NOT inbox_project', [userId]);
    if (rows.length !== 1) throw new Error(`S9: the seeded account has ${rows.length} projects, not 1`);
    return rows[0].id;
  } finally {
    await client.end();
  }
}

async function newProject(gatewayUrl: string, account: BenchAccount): Promise<string> {
  const made = await postSync(gatewayUrl, account.token, { commands: [{ type: 'project_add', uuid: randomUUID(), temp_id: 'project', args: { name: 'S9 empty' } }] });
  const id = (made.body['temp_id_mapping'] as Record<string, string> | undefined)?.['project'];
  if (made.status !== 200 || !id) throw new Error(`S9: could not create the empty project: ${made.status}`);
  return id;
}

async function addBatch(gatewayUrl: string, target: Target, round: number, measured: boolean): Promise<void> {
  const commands = Array.from({ length: COMMANDS }, (_, index) => ({ type: 'item_add', uuid: randomUUID(), temp_id: randomUUID(), args: { content: `S9 ${round}.${index}`, project_id: target.projectId } }));
  const started = process.hrtime.bigint();
  const answer = await postSync(gatewayUrl, target.account.token, { commands });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!measured) return;
  target.durations.push(ms);
  const status = answer.body['sync_status'] as Record<string, unknown> | undefined;
  const notOk = commands.filter((command) => status?.[command.uuid] !== 'ok').length;
  if (answer.status !== 200 || notOk > 0) {
    target.failures++;
    target.firstFailure ||= `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
