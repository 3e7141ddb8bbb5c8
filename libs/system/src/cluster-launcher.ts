import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { SERVICE_NAMES, type ServiceName, watchParent } from '@doable/shared-runtime';
import { type ClusterProcesses, createClusterProcesses, migrateClusterDatabase, runApp, type ServiceReplica } from './cluster-processes';
import { ReplicaSupervisor } from './replica-supervisor';

const USAGE = `usage: npm run start:cluster -- [--port 8080] [--gateways N] [--sync N] [--rest N] [--<service> N]
                                [--sync-events N] [--<service>-events N] [--verbose]

Runs every service as its own process over PostgreSQL (DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/doable, created if missing) and NATS with JetStream
(NATS_URL, default nats://127.0.0.1:4222), after the migration step. A replica that exits is
restarted with backoff (1 s, 2 s, 4 s... up to 30 s). Ctrl-C, SIGTERM or SIGHUP stops them all.
--<service>-events N runs the service's event consumers in N processes of their own
(PROCESS_ROLE=events) and its replicas answer requests alone, as Kubernetes runs sync-events.
Services: ${SERVICE_NAMES.join(', ')}. Logs at warn and above are shown (all with --verbose).`;

export const DEFAULT_CLUSTER_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/doable';
export const DEFAULT_CLUSTER_NATS_URL = 'nats://127.0.0.1:4222';

export interface LaunchOptions {
  readonly port: number;
  readonly replicas: Partial<Record<ServiceName, number>>;
  /** Events processes per service (`--sync-events N`; docs/operations/process-roles.md). */
  readonly eventsReplicas: Partial<Record<ServiceName, number>>;
  readonly verbose: boolean;
}

export function parseLaunchArgs(argv: string[]): LaunchOptions | undefined {
  const replicaOptions: Record<string, { type: 'string' }> = Object.fromEntries(SERVICE_NAMES.flatMap((name) => [name, `${name}-events`].map((option) => [option, { type: 'string' as const }])));
  const parsed = parseArgs({ args: argv, options: { ...replicaOptions, gateways: { type: 'string' }, port: { type: 'string' }, verbose: { type: 'boolean' }, help: { type: 'boolean' } } });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values['help']) return undefined;
  const replicas: Partial<Record<ServiceName, number>> = {};
  const eventsReplicas: Partial<Record<ServiceName, number>> = {};
  const count = (option: string, raw: string | boolean) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > 16) throw new Error(`--${option} takes a replica count from 1 to 16, not ${String(raw)}`);
    return value;
  };
  for (const name of SERVICE_NAMES) {
    const raw = name === 'gateway' ? (values['gateways'] ?? values[name]) : values[name];
    if (raw !== undefined) replicas[name] = count(name, raw);
    const events = values[`${name}-events`];
    if (events !== undefined) eventsReplicas[name] = count(`${name}-events`, events);
  }
  const port = Number(values['port'] ?? process.env['PORT'] ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port takes a TCP port, not ${String(values['port'])}`);
  return { port, replicas, eventsReplicas, verbose: values['verbose'] === true };
}

/** Creates the database named in the URL when it does not exist (as `npm start` makes its data folder). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) return;
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = new Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

async function accountCount(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM auth.accounts')).rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * On a fresh database, creates one account with the operator CLI (as the embedded first run
 * does) and waits until the running system has made its profile from the user-created event.
 * Undefined when accounts exist: tokens are stored hashed and cannot be shown again.
 */
async function ensureFirstAccount(distDir: string, env: NodeJS.ProcessEnv, gatewayUrl: string, email: string): Promise<{ email: string; token: string } | undefined> {
  if ((await accountCount(env['DATABASE_URL']!)) > 0) return undefined;
  const { stdout } = await runApp(distDir, 'cli', ['create-account', '--email', email, '--name', 'Admin'], { ...env, LOG_LEVEL: 'warn' });
  const token = /API token: ([0-9a-f]{40})/.exec(stdout)?.[1];
  if (!token) throw new Error(`the CLI did not print a token:\n${stdout}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${gatewayUrl}/api/v1/sync`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ sync_token: '*', resource_types: ['user'] }) });
    if (response.status === 200) return { email, token };
    if (Date.now() > deadline) throw new Error(`the first account was created but its profile did not appear in 30 s (HTTP ${response.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

const LEVEL_WARN = 40;

/** Shows a replica's log line when it matters (warn and above), or every line with --verbose. */
function printLine(replica: ServiceReplica, line: string, verbose: boolean): void {
  if (!verbose) {
    const level = /"level":(\d+)/.exec(line)?.[1];
    if (level !== undefined && Number(level) < LEVEL_WARN) return;
  }
  process.stderr.write(`[${replica.label}] ${line}\n`);
}

/**
 * `npm run start:cluster`: the cluster as deployed, on this machine, until Ctrl-C. Resolves to
 * the exit code; the process stays alive (signal handlers) until then.
 */
export async function launchCluster(argv: string[], distDir: string): Promise<number> {
  let options: LaunchOptions | undefined;
  try {
    options = parseLaunchArgs(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = Date.now();
  const databaseUrl = process.env['DATABASE_URL'] || DEFAULT_CLUSTER_DATABASE_URL;
  const natsUrl = process.env['NATS_URL'] || DEFAULT_CLUSTER_NATS_URL;
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, NATS_URL: natsUrl };
  const verbose = options.verbose;
  let cluster: ClusterProcesses | undefined;
  let stopping = false;
  let stopped: (code: number) => void = () => undefined;
  const done = new Promise<number>((ok) => (stopped = ok));
  const supervisor = new ReplicaSupervisor({ report: (line) => process.stderr.write(`${line}\n`) });
  const shutdown = (code: number, why: string) => {
    if (stopping) return;
    stopping = true;
    supervisor.stop();
    process.stderr.write(`${why}: stopping every process\n`);
    // Each replica gets SIGTERM, then SIGKILL after its grace period (ClusterProcesses.stop).
    void (cluster?.stop() ?? Promise.resolve()).finally(() => stopped(code));
  };
  // Ctrl-C reaches the children too (same process group); a supervisor's SIGTERM (or a closed
  // terminal's SIGHUP) reaches this process alone: either way every child is stopped here and
  // waited for. When the parent dies without a signal reaching us (npm killed, its `sh -c`
  // gone), the ppid changes: the same stop.
  process.on('SIGINT', () => shutdown(0, 'SIGINT'));
  process.on('SIGTERM', () => shutdown(0, 'SIGTERM'));
  process.on('SIGHUP', () => shutdown(0, 'SIGHUP'));
  watchParent((why) => shutdown(0, why), { pollPpidMs: 500 });
  try {
    await ensureDatabase(databaseUrl);
    await migrateClusterDatabase({ distDir, databaseUrl, natsUrl, env });
    if (stopping) return await done;
    const processes = createClusterProcesses({
      distDir,
      databaseUrl,
      natsUrl,
      env,
      replicas: options.replicas,
      eventsReplicas: options.eventsReplicas,
      gatewayPort: options.port,
      onLine: (replica, line) => printLine(replica, line, verbose),
      // As an orchestrator would: the replica comes back, with backoff, however often it takes;
      // the others keep serving meanwhile.
      onUnexpectedExit: (replica, code, signal) => {
        if (!stopping) supervisor.exited(replica, code, signal);
      },
    });
    cluster = processes;
    await processes.start();
    for (const replica of processes.replicas) supervisor.started(replica);
    const [url, ...others] = cluster.gatewayUrls;
    const first = await ensureFirstAccount(distDir, env, url, process.env['DOABLE_FIRST_EMAIL'] ?? 'admin@doable.local');
    const lines = [
      `Doable is running (cluster: ${cluster.replicas.length} processes) in ${Date.now() - started} ms`,
      `  base URL:  ${url}`,
      ...(others.length ? [`  gateways:  ${[url, ...others].join(' ')}`] : []),
      `  sign up:   ${url}/auth/signup  (then log in at ${url}/auth/login; apps at ${url}/auth/apps)`,
      `  database:  ${redactUrl(databaseUrl)}`,
      `  NATS:      ${natsUrl}`,
      `  processes: ${cluster.replicas.map((replica) => `${replica.label}=${replica.pid}`).join(' ')}`,
    ];
    if (first) {
      lines.push(
        `  first account: ${first.email}`,
        `  API token:     ${first.token}`,
        '  (shown once: keep it; `DATABASE_URL=... npm run cli -- reset-token --email <email>` makes a new one)',
      );
    } else {
      lines.push('  accounts exist already; `DATABASE_URL=... npm run cli -- create-account --email <email> --name <name>` adds one');
    }
    lines.push(`  try: curl -s -X POST ${url}/api/v1/sync -H "Authorization: Bearer <token>" -d sync_token='*' -d resource_types='["all"]'`, '  Ctrl-C (or SIGTERM to this process) stops every process.');
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (err) {
    if (stopping) return done;
    process.stderr.write(`Doable (cluster) failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    shutdown(1, 'start failed');
  }
  return done;
}
