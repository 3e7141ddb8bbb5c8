// The benchmark suite (issue #6): `npm run bench` runs every scenario, `npm run bench -- S1 S6`
// some of them. Prints a table, writes bench/results/*.json, and after a whole-suite run
// bench/RESULTS.md. Everything it starts (services, baselines, load runners) is a child process
// stopped at the end, on error, on Ctrl-C and after an overall time bound.
import { settledNote, untilQuiet } from './machine-quiet';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccounts, initialFullSyncs, waitForProfiles } from './accounts';
import { startCluster } from './cluster';
import { cleanUpEverything, installExitHandlers } from './lifecycle';
import { describeMachine } from './machine';
import { REPO_ROOT } from './processes';
import { formatBreakdown, summariseProfile } from './profile-summary';
import { writeCapacityMarkdown } from './capacity-report';
import { type Report, textTable, writeJson, writeResultsMarkdown } from './report';
import { SCENARIOS } from './scenarios';
import { S1_USERS } from './scenarios/s1-no-change-sync';
import { type BenchContext, type BenchOptions, type ClusterFixture, pendingRow, type Scenario, type ScenarioRow } from './scenarios/scenario';

const USAGE = `usage: npm run bench [-- [S1 ... S17] [--duration <s>] [--warmup <s>] [--mixed-duration <s>] [--cluster-only]]

  S1..S17            scenarios to run (default: all; pending ones are listed, not run)
  --duration <s>     measured seconds per load run (default 10)
  --warmup <s>       discarded warm-up seconds before each load run (default 3)
  --mixed-duration   seconds of S6 (default 60)
  --cluster-only     skip the embedded-mode measurements
  --cpu-prof         write V8 CPU profiles of gateway, rest, sync, uploads and webhooks (and the embedded process) (bench/results/profiles/) and
                     print where their CPU time went
  BENCH_OTLP_ENDPOINT=<url> (environment): every service's spans to that OTLP/HTTP collector
`;

/**
 * A stop for a run that hangs, not a budget: the whole suite of 17 scenarios takes 15-16 minutes
 * on a quiet 2-core machine (the quiet run of 6350ccd2 took 898 s; the next, of 21469ede, was
 * stopped at 15 minutes while starting S17, the last), so the bound leaves it room.
 */
const OVERALL_BOUND_MS = 25 * 60_000;

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

function parseOptions(): { ids: Set<string>; options: BenchOptions; all: boolean } | undefined {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      'mixed-duration': { type: 'string', default: '60' },
      'cluster-only': { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const seconds = (text: string, name: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0 || value > 600) throw new Error(`--${name} must be a whole number of seconds, 0..600`);
    return value;
  };
  if (values.help) return undefined;
  const known = new Set(SCENARIOS.map((scenario) => scenario.id as string));
  const ids = new Set(positionals.map((id) => id.toUpperCase()));
  for (const id of ids) if (!known.has(id)) throw new Error(`unknown scenario ${id} (known: ${[...known].join(', ')})`);
  return {
    ids: ids.size > 0 ? ids : known,
    all: ids.size === 0,
    options: {
      durationS: Math.max(1, seconds(values.duration, 'duration')),
      warmupS: seconds(values.warmup, 'warmup'),
      mixedDurationS: Math.max(1, seconds(values['mixed-duration'], 'mixed-duration')),
      embedded: !values['cluster-only'],
      cpuProfile: values['cpu-prof'],
    },
  };
}

/** The cluster and its users, started on first use, shared by S1 and S6, stopped before embedded runs. */
function clusterOnDemand(runId: string, cpuProfileDir: string | undefined): Pick<BenchContext, 'cluster' | 'releaseCluster'> {
  let fixture: Promise<ClusterFixture> | undefined;
  return {
    cluster: () =>
      (fixture ??= (async () => {
        log('starting the cluster (one process per service)');
        const cluster = await startCluster({ cpuProfileDir });
        log(`creating ${S1_USERS} accounts`);
        const accounts = await createAccounts(cluster.databaseUrl, runId, S1_USERS);
        await waitForProfiles(
          cluster.databaseUrl,
          accounts.map((account) => account.userId),
        );
        const users = await initialFullSyncs(cluster.gatewayUrl, accounts);
        return { cluster, users };
      })()),
    async releaseCluster() {
      const started = fixture;
      fixture = undefined;
      if (started) await started.then(({ cluster }) => cluster.close()).catch(() => undefined);
    },
  };
}

/** Runs one scenario in one mode; a failure becomes a FAILED row and the suite goes on. */
async function runMode(scenario: Scenario, mode: 'cluster' | 'embedded', run: (context: BenchContext) => Promise<ScenarioRow[]>, context: BenchContext): Promise<ScenarioRow[]> {
  const settled = await untilQuiet();
  log(`${scenario.id} (${mode}): ${scenario.title} (${settledNote(settled)})`);
  try {
    return (await run(context)).map((row) => ({ ...row, notes: [...(row.notes ?? []), settledNote(settled)] }));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log(`${scenario.id} (${mode}) failed: ${message}`);
    return [{ id: scenario.id, mode, what: scenario.title, status: 'failed', target: scenario.target, notes: [`failed: ${message.slice(0, 600)}`] }];
  }
}

/** The services wrote their profiles when they exited (cleanup): summarise what is there. */
async function printProfiles(dir: string): Promise<void> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.cpuprofile'));
  process.stdout.write(`CPU profiles (${dir}), self time by kind of code:\n`);
  for (const file of files) process.stdout.write(formatBreakdown(await summariseProfile(join(dir, file))));
}

async function main(): Promise<number> {
  const parsed = parseOptions();
  if (!parsed) {
    process.stdout.write(USAGE);
    return 0;
  }
  installExitHandlers(OVERALL_BOUND_MS);
  const started = Date.now();
  const runId = `run-${randomBytes(3).toString('hex')}`;
  const machine = await describeMachine();
  const profileDir = parsed.options.cpuProfile ? join(REPO_ROOT, 'bench', 'results', 'profiles', machine.date.replace(/[:.]/g, '-')) : undefined;
  const context: BenchContext = { runId, options: parsed.options, cpuProfileDir: profileDir, ...clusterOnDemand(runId, profileDir) };
  const selected = SCENARIOS.filter((scenario) => parsed.ids.has(scenario.id));
  const rows: ScenarioRow[] = [];
  try {
    for (const scenario of selected) {
      if (scenario.needs || !scenario.run) rows.push(pendingRow(scenario));
      else rows.push(...(await runMode(scenario, 'cluster', scenario.run, context)));
    }
    await context.releaseCluster();
    if (parsed.options.embedded) {
      for (const scenario of selected) {
        if (!scenario.needs && scenario.runEmbedded) rows.push(...(await runMode(scenario, 'embedded', scenario.runEmbedded, context)));
      }
    }
  } finally {
    await cleanUpEverything();
  }
  // Grouped by scenario in the table (stable: cluster before embedded).
  rows.sort((a, b) => a.id.localeCompare(b.id));
  const report: Report = {
    machine,
    command: `npm run bench${parsed.all ? '' : ` -- ${[...parsed.ids].join(' ')}`}`,
    options: { ...parsed.options },
    elapsedS: Math.round((Date.now() - started) / 1000),
    rows,
  };
  process.stdout.write(`\n${textTable(rows)}\n`);
  if (profileDir) await printProfiles(profileDir);
  log(`results: ${await writeJson(report)}`);
  if (parsed.all) {
    log(`latest whole-suite run: ${await writeResultsMarkdown(report)}`);
    const capacity = await writeCapacityMarkdown(report);
    if (capacity) log(`capacity model: ${capacity}`);
  }
  return rows.some((row) => row.status === 'failed') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    void cleanUpEverything().finally(() => process.exit(1));
  },
);
