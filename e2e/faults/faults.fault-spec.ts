import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@doable/shared-testing';
import { streamNameFor } from '@doable/shared-transport';
import { type ClusterProcesses, ensureDatabase, migrateClusterDatabase, runApp, startClusterProcesses } from '@doable/system';
import { REPO_ROOT } from '../support/processes';
import { type PrivateNats, type PrivatePostgres, startPrivateNats, startPrivatePostgres } from './private-servers';
import { settledEvents } from './settled-events';
import { type Attempt, SteadyWriters } from './steady-writers';

/**
 * The fault suite (`npm run test:faults`, not part of `npm test`): the cluster as deployed
 * (every replica its own process; 2 gateways, 2 sync replicas) over a PostgreSQL and a NATS of
 * its own, under steady write load, while each service in turn is SIGKILLed and restarted, then
 * NATS and then PostgreSQL are restarted. Correctness is asserted (nothing acknowledged is
 * lost, nothing is written twice, an outage answers 503 and never a per-command error, the
 * system recovers by itself, events still flow); times are measured and printed, not asserted.
 */

const DIST = join(REPO_ROOT, 'dist');
/** The e2e tier's plan catalogue (E2E_PLANS_FILE in ../support/system-under-test). */
const PLANS_FILE = join(REPO_ROOT, 'e2e', 'support', 'plans.e2e.json');
const WRITERS = 8;
/** How long each fault lasts before the repair. */
const DOWN_MS = 3_000;
/** A bound for liveness only: a 503 must come, not hang until the client gives up. */
const ANSWER_BOUND_MS = 10_000;

interface Probe {
  readonly status: number;
  readonly seconds: number;
  readonly reason?: string;
  readonly retryAfter?: string | null;
}

interface FaultFigures {
  readonly fault: string;
  readonly requests: number;
  readonly answered503: number;
  readonly connectionErrors: number;
  /** The slowest request sent during the fault: what a client waited at worst. */
  readonly slowestRequestS: number;
  /** From the fault to the first acknowledged write after the last failed one (0: none failed). */
  readonly disturbedS: number;
  /** From the end of the repair (restart done) to that write. */
  readonly recoveryS: number;
  /** The longest a request already in flight when the fault came waited for its answer after it (0: none in flight). */
  readonly inFlightS: number;
  readonly probe?: Probe;
  /** A request that degrades instead of failing while this dependency is down (not a 503). */
  readonly degraded?: Probe & { readonly what: string };
}

const seconds = (ms: number) => Math.round(ms / 10) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('faults under steady write load (cluster, real PostgreSQL and NATS)', () => {
  let postgres: PrivatePostgres;
  let nats: PrivateNats;
  let cluster: ClusterProcesses;
  let writers: SteadyWriters;
  const tokens: string[] = [];
  const figures: FaultFigures[] = [];
  let env: NodeJS.ProcessEnv;

  const gateway = () => cluster.gatewayUrls.find((url, index) => url && cluster.replica('gateway', index).running) ?? cluster.gatewayUrls[0];

  async function cliAccount(email: string): Promise<string> {
    const { stdout } = await runApp(DIST, 'cli', ['create-account', '--email', email, '--name', 'Writer'], { ...env, LOG_LEVEL: 'warn' });
    const token = /API token: ([0-9a-f]{40})/.exec(stdout)?.[1];
    if (!token) throw new Error(`create-account printed no token: ${stdout}`);
    await waitFor(async () => (await syncRead(token)).status === 200, `the profile of ${email}`, 60_000);
    return token;
  }

  function syncRead(token: string, resourceTypes = ['user']): Promise<Response> {
    return fetch(`${gateway()}/api/v1/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sync_token: '*', resource_types: resourceTypes }),
      signal: AbortSignal.timeout(30_000),
    });
  }

  async function probe(path: string, init: RequestInit = {}): Promise<Probe> {
    const started = Date.now();
    const response = await fetch(`${gateway()}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = (await response.json().catch(() => ({}))) as { error_extra?: { reason?: string } };
    return { status: response.status, seconds: seconds(Date.now() - started), reason: body.error_extra?.reason, retryAfter: response.headers.get('retry-after') };
  }

  const syncProbe = () => probe('/api/v1/sync', { method: 'POST', headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' }, body: JSON.stringify({ sync_token: '*', resource_types: ['projects'] }) });

  /** Injects a fault, keeps it DOWN_MS (probing meanwhile), repairs it, and waits for writes to succeed again. */
  async function fault(
    name: string,
    inject: () => Promise<void> | void,
    repair: () => Promise<void> | void,
    probeWhileDown?: () => Promise<Probe>,
    degradedWhileDown?: () => Promise<Probe & { what: string }>,
  ): Promise<void> {
    const startedAt = Date.now();
    await inject();
    const probed = probeWhileDown ? await probeWhileDown() : undefined;
    const degraded = degradedWhileDown ? await degradedWhileDown() : undefined;
    await sleep(Math.max(0, DOWN_MS - (Date.now() - startedAt)));
    await repair();
    const repairedAt = Date.now();
    const attempts = writers.figures.attempts;
    await waitFor(() => attempts.some((attempt) => attempt.ok && attempt.sentAt >= repairedAt), `writes to succeed again after ${name}`, 60_000);
    await sleep(500);
    const during = attempts.filter((attempt) => attempt.sentAt >= startedAt);
    const failed = during.filter((attempt) => !attempt.ok);
    const lastFailure = failed.reduce((latest, attempt) => Math.max(latest, attempt.answeredAt), 0);
    const backAt = lastFailure ? (during.find((attempt: Attempt) => attempt.ok && attempt.answeredAt > lastFailure)?.answeredAt ?? Date.now()) : startedAt;
    figures.push({
      fault: name,
      requests: during.length,
      answered503: during.filter((attempt) => attempt.status === 503).length,
      connectionErrors: during.filter((attempt) => attempt.status === 0).length,
      slowestRequestS: seconds(Math.max(0, ...during.map((attempt) => attempt.answeredAt - attempt.sentAt))),
      disturbedS: seconds(backAt - startedAt),
      recoveryS: seconds(Math.max(0, backAt - repairedAt)),
      inFlightS: seconds(Math.max(0, ...attempts.filter((attempt) => attempt.sentAt < startedAt && attempt.answeredAt > startedAt).map((attempt) => attempt.answeredAt - startedAt))),
      ...(probed ? { probe: probed } : {}),
      ...(degraded ? { degraded } : {}),
    });
  }

  /** A sync read with live notifications, the user and plan limits: notifications down must not fail it. */
  const readWithNotifications = async () => {
    const answer = await probe('/api/v1/sync', { method: 'POST', headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' }, body: JSON.stringify({ sync_token: '*', resource_types: ['user', 'user_plan_limits', 'live_notifications'] }) });
    return { ...answer, what: 'sync read user+plan limits+live_notifications' };
  };
  /** An upload: its plan check uses the user's last known plan while plans is down. */
  const upload = async () => {
    const answer = await probe('/api/v1/uploads', { method: 'POST', headers: { authorization: `Bearer ${tokens[0]}`, 'x-file-name': 'note.txt', 'content-type': 'text/plain' }, body: 'hello' });
    return { ...answer, what: 'upload (plan check)' };
  };

  const kill = (service: Parameters<ClusterProcesses['replica']>[0], index = 0) => () => cluster.replica(service, index).kill('SIGKILL');
  const restart = (service: Parameters<ClusterProcesses['replica']>[0], index = 0) => () => cluster.replica(service, index).start();

  beforeAll(async () => {
    [postgres, nats] = await Promise.all([startPrivatePostgres(), startPrivateNats()]);
    env = {
      PATH: process.env['PATH'],
      DATABASE_URL: postgres.url,
      NATS_URL: nats.url,
      NATS_SUBJECT_PREFIX: 'faults.',
      LOG_LEVEL: 'warn',
      OUTBOX_POLL_MS: '200',
      RATE_LIMIT_SYNC_REQUESTS: '0',
      RATE_LIMIT_REST_REQUESTS: '0',
      RATE_LIMIT_AUTH_REQUESTS: '0',
      // The e2e catalogue (new accounts on "roomy"): a steady writer adds thousands of tasks,
      // far above the free plan's 300, and a refused item_add would read as a per-command error.
      PLANS_FILE,
    };
    await ensureDatabase(postgres.url);
    await migrateClusterDatabase({ distDir: DIST, databaseUrl: postgres.url, natsUrl: nats.url, env });
    cluster = await startClusterProcesses({ distDir: DIST, databaseUrl: postgres.url, natsUrl: nats.url, env, replicas: { gateway: 2, sync: 2 } });
    for (let writer = 0; writer < WRITERS; writer++) tokens.push(await cliAccount(`writer-${writer}@faults.test`));
  }, 300_000);

  afterAll(async () => {
    await writers?.stop().catch(() => undefined);
    await cluster?.stop();
    await nats?.destroy();
    postgres?.destroy();
  }, 120_000);

  it('loses nothing, writes nothing twice, answers 503 during outages and recovers by itself', async () => {
    writers = new SteadyWriters(() => cluster.gatewayUrls, tokens);
    writers.start();
    await sleep(2_000);

    await fault('SIGKILL sync#1 (of 2)', kill('sync', 0), restart('sync', 0));
    await fault('SIGKILL sync#2 (of 2)', kill('sync', 1), restart('sync', 1));
    await fault(
      'SIGKILL both sync replicas',
      async () => {
        await Promise.all([kill('sync', 0)(), kill('sync', 1)()]);
      },
      async () => {
        await Promise.all([restart('sync', 0)(), restart('sync', 1)()]);
      },
      syncProbe,
    );
    await fault('SIGKILL rest', kill('rest'), restart('rest'), () => probe('/rest/v2/projects', { headers: { authorization: `Bearer ${tokens[0]}` } }));
    await fault('SIGKILL auth-oauth', kill('auth-oauth'), restart('auth-oauth'), () => probe('/auth/login'));
    // The uploads replica learns the user's plan before plans goes away.
    const before = await upload();
    expect(before.status).not.toBe(503);
    await fault('SIGKILL plans', kill('plans'), restart('plans'), undefined, upload);
    await fault('SIGKILL notifications', kill('notifications'), restart('notifications'), undefined, readWithNotifications);
    await fault('SIGKILL uploads', kill('uploads'), restart('uploads'));
    await fault('SIGKILL gateway#1 (of 2)', kill('gateway', 0), restart('gateway', 0));
    await fault('restart NATS', () => nats.stop(), () => nats.start(), syncProbe);
    await fault('restart PostgreSQL (immediate stop)', () => postgres.stopImmediate(), () => postgres.start(), syncProbe);

    await writers.stop();

    // What every writer finds in its account afterwards.
    let acknowledged = 0;
    let present = 0;
    let lost = 0;
    let duplicated = 0;
    const taskIds: string[] = [];
    for (let writer = 0; writer < WRITERS; writer++) {
      const response = await syncRead(tokens[writer], ['items']);
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: { id: string; content: string }[] };
      taskIds.push(...items.map((item) => item.id));
      const counts = new Map<string, number>();
      for (const item of items) counts.set(item.content, (counts.get(item.content) ?? 0) + 1);
      const acked = writers.figures.acknowledged.get(writer)!;
      acknowledged += acked.length;
      present += counts.size;
      lost += acked.filter((content) => !counts.has(content)).length;
      duplicated += [...counts.values()].filter((count) => count > 1).length;
    }

    // Events still reach their consumers: an account made now gets its profile (auth -> sync),
    // and no outbox holds an event it could not publish.
    await cliAccount('after-the-faults@faults.test');
    // The consumers' side (issue #48: they take events in batches, a transaction per batch): every
    // task present has its `added` event in sync's activity log exactly once.
    const { unpublished, activity } = await settledEvents(postgres.url, nats.url, streamNameFor('faults.'), taskIds);

    const summary = { writers: WRITERS, requests: writers.figures.attempts.length, acknowledged, present, lost, duplicated, commandErrors: writers.figures.commandErrors.length, unpublishedEvents: unpublished, activity };
    const report = [
      'fault suite figures',
      `  ${JSON.stringify(summary)}`,
      '  fault                                   requests  503s  conn.err  slowest s  in-flight s  disturbed s  recovery s  probe while down',
      ...figures.map(
        (entry) =>
          `  ${entry.fault.padEnd(40)}${String(entry.requests).padStart(8)}${String(entry.answered503).padStart(6)}${String(entry.connectionErrors).padStart(10)}${entry.slowestRequestS.toFixed(2).padStart(11)}${entry.inFlightS.toFixed(2).padStart(13)}${entry.disturbedS.toFixed(2).padStart(13)}${entry.recoveryS.toFixed(2).padStart(12)}  ${entry.probe ? `${entry.probe.status} in ${entry.probe.seconds} s (${entry.probe.reason ?? '-'}, Retry-After ${entry.probe.retryAfter ?? '-'})` : ''}${entry.degraded ? `degraded: ${entry.degraded.what} ${entry.degraded.status} in ${entry.degraded.seconds} s` : ''}`,
      ),
    ].join('\n');
    process.stdout.write(`\n${report}\n`);
    mkdirSync(join(REPO_ROOT, 'tmp'), { recursive: true });
    writeFileSync(join(REPO_ROOT, 'tmp', 'faults-figures.json'), JSON.stringify({ summary, faults: figures }, null, 2));

    expect(writers.figures.commandErrors).toEqual([]);
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect({ lost: activity.lost, duplicated: activity.duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(present).toBeGreaterThanOrEqual(acknowledged);
    for (const entry of figures.filter((candidate) => candidate.probe)) {
      expect({ fault: entry.fault, status: entry.probe!.status, retryAfter: entry.probe!.retryAfter !== null }).toEqual({ fault: entry.fault, status: 503, retryAfter: true });
      expect(entry.probe!.seconds * 1000).toBeLessThan(ANSWER_BOUND_MS);
    }
    // One service down degrades what depends on it instead of failing it whole.
    expect(figures.filter((candidate) => candidate.degraded?.status === 503).map((entry) => entry.fault)).toEqual([]);
  }, 900_000);
});

/** Alive and not a zombie (a child of an exited parent waits for init to reap it; kill(pid, 0) still succeeds). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** `npm run start:cluster` as a supervisor runs it, with what it printed and the pids it named. */
interface Launch {
  readonly npm: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** label (plans#1) -> pid, from the launcher's `processes:` line. */
  readonly pids: Map<string, number>;
  /** The launcher's own pid (npm's child: the scripts `exec node`). */
  readonly launcherPid: number;
}

async function launch(env: NodeJS.ProcessEnv): Promise<Launch> {
  let stdout = '';
  let stderr = '';
  // detached: npm in a process group of its own, so only the signal sent to its pid reaches it (as a supervisor sends it).
  const npm = spawn('npm', ['run', 'start:cluster', '--', '--no-build', '--port', '0'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  npm.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The launcher's last line, whether or not it made a first account.
  await waitFor(() => /stops every process\./.test(stdout) || npm.exitCode !== null, 'start:cluster to be up', 180_000);
  const pids = new Map([...(/processes: (.*)/.exec(stdout)?.[1] ?? '').matchAll(/(\S+)=(\d+)/g)].map((match) => [match[1], Number(match[2])]));
  const launcherPid = Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(npm.pid)]).toString().trim().split('\n')[0]);
  return { npm, stdout: () => stdout, stderr: () => stderr, pids, launcherPid };
}

/** Kills whatever a launch left running (a failed test's), npm's process group first. */
function killLaunch(launched: Launch | undefined): void {
  if (!launched) return;
  for (const pid of [launched.npm.pid!, launched.launcherPid, ...launched.pids.values()]) if (pid && running(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * `npm run start:cluster` itself (the launcher, its restarts and its signals) over a PostgreSQL
 * and a NATS of this suite's own: a replica killed while PostgreSQL is down comes back once it
 * is up again (the launcher retries with backoff, the service waits for its database), SIGTERM
 * to npm's pid stops every process, and a launcher killed with -9 (no handler runs) leaves no
 * replica behind: each one sees its IPC channel to the launcher close and stops itself.
 */
describe('npm run start:cluster under faults (launcher restarts and signals)', () => {
  let postgres: PrivatePostgres;
  let nats: PrivateNats;
  let env: NodeJS.ProcessEnv;
  const launches: Launch[] = [];

  beforeAll(async () => {
    [postgres, nats] = await Promise.all([startPrivatePostgres(), startPrivateNats()]);
    env = { PATH: process.env['PATH'], HOME: process.env['HOME'], DATABASE_URL: postgres.url, NATS_URL: nats.url, NATS_SUBJECT_PREFIX: 'launcher.', OUTBOX_POLL_MS: '200' };
  }, 60_000);

  afterAll(async () => {
    for (const launched of launches) killLaunch(launched);
    await nats?.destroy();
    postgres?.destroy();
  }, 60_000);

  it('brings back a replica killed while PostgreSQL was down, then stops everything on SIGTERM to npm', async () => {
    const launched = await launch(env);
    launches.push(launched);
    const { pids, stderr } = launched;
    // One replica of each of the nine services (no --gateways/--sync here: the launcher, not failover, is under test).
    expect(pids.size).toBe(9);
    // Issue #28 (5): PostgreSQL stopped, plans SIGKILLed, PostgreSQL back 5 s later.
    const killedAt = Date.now();
    postgres.stopImmediate();
    process.kill(pids.get('plans#1')!, 'SIGKILL');
    await sleep(5_000);
    postgres.start();
    const restartedAt = Date.now();
    await waitFor(() => /plans#1 is back \(pid \d+\)/.test(stderr()), 'plans#1 to come back', 120_000);
    const backAt = Date.now();
    const newPlans = Number(/plans#1 is back \(pid (\d+)\)/.exec(stderr())![1]);
    pids.set('plans#1', newPlans);
    const others = [...pids.entries()].filter(([label]) => label !== 'plans#1');
    process.stdout.write(
      `\nlauncher under faults\n  plans#1 back ${seconds(backAt - restartedAt)} s after PostgreSQL (${seconds(backAt - killedAt)} s after the kill)\n  launcher said:\n${stderr()
        .split('\n')
        .filter((line) => /plans#1 (exited|is back|runs)|stopping every process/.test(line))
        .map((line) => `    ${line}`)
        .join('\n')}\n`,
    );
    expect(stderr()).not.toMatch(/stopping every process/);
    expect(others.filter(([, pid]) => !running(pid))).toEqual([]);

    // Issue #28 (6): SIGTERM to npm's pid (what a supervisor sends) stops the launcher and every replica.
    const everyPid = [launched.launcherPid, ...pids.values()];
    const signalledAt = Date.now();
    process.kill(launched.npm.pid!, 'SIGTERM');
    await waitFor(() => everyPid.every((pid) => !running(pid)), 'every process to stop after SIGTERM to npm', 30_000).catch(() => undefined);
    const left = everyPid.filter(running);
    process.stdout.write(`  SIGTERM to npm: ${everyPid.length - left.length} of ${everyPid.length} processes gone in ${seconds(Date.now() - signalledAt)} s\n`);
    expect(left).toEqual([]);
  }, 300_000);

  it('leaves no replica running when the launcher is killed with SIGKILL', async () => {
    // The same database (accounts exist: no first account this time) under another subject prefix.
    const launched = await launch({ ...env, NATS_SUBJECT_PREFIX: 'launcher2.' });
    launches.push(launched);
    expect(launched.pids.size).toBe(9);
    const replicas = [...launched.pids.values()];
    expect(replicas.filter((pid) => !running(pid))).toEqual([]);
    const killedAt = Date.now();
    process.kill(launched.launcherPid, 'SIGKILL');
    await waitFor(() => replicas.every((pid) => !running(pid)), 'every replica to stop after kill -9 of the launcher', 30_000).catch(() => undefined);
    const left = [...launched.pids.entries()].filter(([, pid]) => running(pid)).map(([label]) => label);
    process.stdout.write(`  kill -9 of the launcher: ${replicas.length - left.length} of ${replicas.length} replicas gone in ${seconds(Date.now() - killedAt)} s\n`);
    expect(left).toEqual([]);
  }, 300_000);
});
