import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { readyUrlOf } from '@doable/shared-logging';
import { type ProcessRole, SERVICE_MALLOC_ENV, type ServiceName, serviceNodeFlags } from '@doable/shared-runtime';
import { ALL_SERVICES } from './all-services';

/**
 * Cluster mode as deployed, on one machine: every service replica a process of its own, started
 * from the compiled entry a container runs (`dist/apps/<service>/src/main.js`), after the
 * one-shot migration step. Used by `npm run start:cluster` and the fault suite.
 */
export interface ClusterProcessesOptions {
  /** The build output holding `apps/<service>/src/main.js`. */
  readonly distDir: string;
  readonly databaseUrl: string;
  readonly natsUrl: string;
  /** Settings for every process (NATS_SUBJECT_PREFIX, LOG_LEVEL, limits...). */
  readonly env?: NodeJS.ProcessEnv;
  /** Replicas per service (default 1 each). */
  readonly replicas?: Partial<Record<ServiceName, number>>;
  /**
   * Processes per service that consume its events alone (PROCESS_ROLE=events), as the
   * Kubernetes base runs sync-events; a service given any has its replicas answer requests
   * alone (PROCESS_ROLE=requests). Default none: every replica does both.
   */
  readonly eventsReplicas?: Partial<Record<ServiceName, number>>;
  /** The first gateway's port (the next ones take the following ports); 0: any free port. */
  readonly gatewayPort?: number;
  /** Every log line of every replica, with who wrote it. */
  readonly onLine?: (replica: ServiceReplica, line: string) => void;
  /** A replica that exited without being told to (a crash, an OOM kill, a SIGKILL from outside). */
  readonly onUnexpectedExit?: (replica: ServiceReplica, code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface ServiceReplica {
  readonly service: ServiceName;
  readonly index: number;
  /** Its share of the service's work (docs/operations/process-roles.md). */
  readonly role: ProcessRole;
  /** `sync#2` (`sync-events#1` for an events process): how logs and reports name it. */
  readonly label: string;
  /** The replica's own HTTP address (health, metrics; the API on a gateway); known once ready. */
  readonly url: string | undefined;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Sends the signal and waits for the exit (SIGTERM is a graceful stop; SIGKILL a crash). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the replica again (same port for a gateway) and waits until it is ready. */
  start(): Promise<void>;
}

export interface ClusterProcesses {
  readonly replicas: readonly ServiceReplica[];
  /** The gateways' base URLs, first one first. */
  readonly gatewayUrls: readonly string[];
  /** A replica answering the service's requests (not one of its events processes). */
  replica(service: ServiceName, index?: number): ServiceReplica;
  /** Stops every replica (SIGTERM, SIGKILL after the grace period), gateways first. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
/** Above a replica's own bound (STOP_TIMEOUT_MS, 10 s), so the replica says what it was waiting for before it is killed. */
const STOP_GRACE_MS = 12_000;

export function entryOf(distDir: string, app: string): string {
  const entry = join(distDir, 'apps', app, 'src', 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  return entry;
}

/** Runs an app's command as a process to its end; rejects with its output when it fails. */
export function runApp(distDir: string, app: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [entryOf(distDir, app), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((ok, fail) => {
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? ok({ stdout, stderr }) : fail(new Error(`${app} ${args.join(' ')} exited ${code}: ${stderr || stdout}`))));
  });
}

/**
 * The migration Jobs: every data-owning service's `migrate` step, all at once, as Kubernetes runs
 * one Job per service (each service migrates only its own schema). Every step runs to its end;
 * the first failure is then reported.
 */
export async function migrateClusterDatabase(options: Pick<ClusterProcessesOptions, 'distDir' | 'databaseUrl' | 'natsUrl' | 'env'>): Promise<void> {
  const steps = await Promise.allSettled(ALL_SERVICES.filter((definition) => definition.database).map((definition) => runApp(options.distDir, definition.name, ['migrate'], childEnv(options, { LOG_LEVEL: 'warn' }))));
  const failed = steps.find((step): step is PromiseRejectedResult => step.status === 'rejected');
  if (failed) throw failed.reason;
}

function childEnv(options: Pick<ClusterProcessesOptions, 'databaseUrl' | 'natsUrl' | 'env'>, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // No balancer reads these replicas' readiness: no drain on a stop unless the environment asks for one.
  // The allocator as deployed (the Dockerfile's runtime stage): see SERVICE_MALLOC_ENV.
  return { PATH: process.env['PATH'], ...SERVICE_MALLOC_ENV, HOST: '127.0.0.1', STOP_DRAIN_MS: '0', ...options.env, DATABASE_URL: options.databaseUrl, NATS_URL: options.natsUrl, ...extra };
}

async function waitUntilReady(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited()) throw new Error('exited before it was ready');
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) return;
    } catch {
      // Not answering yet.
    }
    if (Date.now() > deadline) throw new Error(`not ready after ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

class ReplicaProcess implements ServiceReplica {
  readonly label: string;
  url: string | undefined;
  private child: ChildProcess | undefined;
  private exit: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(
    readonly service: ServiceName,
    readonly index: number,
    private port: number,
    private readonly options: ClusterProcessesOptions,
    readonly role: ProcessRole = options.eventsReplicas?.[service] ? 'requests' : 'all',
  ) {
    this.label = `${service}${role === 'events' ? '-events' : ''}#${index + 1}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.stopping = false;
    // LOG_LEVEL info at least: the `ready` line says which port the OS gave (PORT=0 binds
    // directly, with no window for another process to take a port picked in advance).
    const level = this.options.env?.['LOG_LEVEL'];
    const env = childEnv(this.options, { PORT: String(this.port), LOG_LEVEL: level === 'debug' || level === 'trace' ? level : 'info', ...(this.role === 'all' ? {} : { PROCESS_ROLE: this.role }) });
    if (!ALL_SERVICES.find((definition) => definition.name === this.service)?.database) env['DATABASE_URL'] = '';
    // The IPC channel is a tripwire: when this process dies (even by SIGKILL) the replica sees it
    // close and stops itself (runService's watchParent), so no orphan keeps serving.
    const child = spawn(process.execPath, [...serviceNodeFlags(this.service), entryOf(this.options.distDir, this.service), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    child.channel?.unref();
    this.child = child;
    this.url = undefined;
    let announced: (url: string) => void = () => undefined;
    const readyUrl = new Promise<string>((ok) => (announced = ok));
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        const url = readyUrlOf(line);
        if (url) announced(url);
        this.options.onLine?.(this, line);
      });
    }
    let exited = false;
    this.exit = new Promise((ok) =>
      child.once('exit', (code, signal) => {
        exited = true;
        if (!this.stopping) this.options.onUnexpectedExit?.(this, code, signal);
        ok();
      }),
    );
    const url = await Promise.race([readyUrl, this.exit.then(() => undefined)]);
    if (!url) throw new Error(`${this.label} exited during start`);
    await waitUntilReady(url, () => exited);
    this.url = url;
    // A gateway comes back where clients (and load balancers) know it.
    if (this.service === 'gateway') this.port = Number(new URL(url).port);
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    this.child!.kill(signal);
    const escalate = setTimeout(() => this.child?.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exit;
    clearTimeout(escalate);
  }
}

/**
 * One replica of a service run from `options.distDir`, not started yet (`start()` waits until it
 * is ready): how a rolling update brings in a replica of another build beside the running ones.
 */
export function createServiceReplica(options: ClusterProcessesOptions, service: ServiceName, index: number, port = 0): ServiceReplica {
  return new ReplicaProcess(service, index, port, options);
}

/**
 * The replicas, not started yet: `start()` starts every one (owners of data first, gateways
 * last, as ALL_SERVICES orders them) and waits until each reports ready; if one fails, the
 * others are stopped. `stop()` may come at any time, during a start too.
 */
export function createClusterProcesses(options: ClusterProcessesOptions): ClusterProcesses & { start(): Promise<void> } {
  const replicas: ReplicaProcess[] = [];
  for (const definition of ALL_SERVICES) {
    const count = options.replicas?.[definition.name] ?? 1;
    for (let index = 0; index < count; index++) {
      const port = definition.name === 'gateway' && options.gatewayPort ? options.gatewayPort + index : 0;
      replicas.push(new ReplicaProcess(definition.name, index, port, options));
    }
    const events = options.eventsReplicas?.[definition.name] ?? 0;
    for (let index = 0; index < events; index++) replicas.push(new ReplicaProcess(definition.name, index, 0, options, 'events'));
  }
  let stopped = false;
  const stop = async () => {
    stopped = true;
    // The front door first, so no new request arrives at a service that is going away.
    const gateways = replicas.filter((replica) => replica.service === 'gateway');
    await Promise.all(gateways.map((replica) => replica.kill('SIGTERM')));
    await Promise.all(replicas.filter((replica) => replica.service !== 'gateway').map((replica) => replica.kill('SIGTERM')));
  };
  return {
    replicas,
    get gatewayUrls() {
      return replicas.filter((replica) => replica.service === 'gateway').map((replica) => replica.url ?? '');
    },
    replica(service, index = 0) {
      const found = replicas.find((replica) => replica.service === service && replica.index === index && replica.role !== 'events');
      if (!found) throw new Error(`no replica ${service}#${index + 1}`);
      return found;
    },
    async start() {
      try {
        // Replicas of one service start together; services in order (a gateway needs the others).
        for (const definition of ALL_SERVICES) {
          if (stopped) throw new Error('stopped while starting');
          await Promise.all(replicas.filter((replica) => replica.service === definition.name).map((replica) => replica.start()));
        }
      } catch (err) {
        await stop();
        throw err;
      }
    },
    stop,
  };
}

export async function startClusterProcesses(options: ClusterProcessesOptions): Promise<ClusterProcesses> {
  const cluster = createClusterProcesses(options);
  await cluster.start();
  return cluster;
}
