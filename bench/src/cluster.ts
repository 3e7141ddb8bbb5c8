import { randomBytes } from 'node:crypto';
import { SERVICE_MALLOC_ENV, SERVICE_NAMES, serviceNodeFlags } from '@doable/shared-runtime';
import { createTestDatabase, freePort, TEST_NATS_URL } from '@doable/shared-testing';
import { onCleanup } from './lifecycle';
import { ROOMY_PLANS } from './plans';
import { NO_RATE_LIMITS } from './rate-limits';
import { statusOf, until } from './poll';
import { appEntry, type Child, runToCompletion, spawnNode } from './processes';
import { deleteStreamsOfRun } from './run-streams';

/** Started in dependency order (as libs/system's ALL_SERVICES): the gateway last, so it never routes to a service not yet up. */
export const SERVICES = ['auth-oauth', 'plans', 'notifications', 'uploads', 'webhooks', 'sync', 'rest', 'mcp', 'gateway'] as const;
const DATA_SERVICES: ReadonlySet<string> = new Set(['auth-oauth', 'plans', 'notifications', 'uploads', 'webhooks', 'sync']);
const PROFILED: ReadonlySet<string> = new Set(['gateway', 'rest', 'sync', 'uploads', 'webhooks']);
// The bench grows with the product: a service added to the runtime and not started here would
// leave its subjects unanswered, and every scenario touching it would fail for the wrong reason.
const missing = SERVICE_NAMES.filter((name) => !(SERVICES as readonly string[]).includes(name));
if (missing.length > 0) throw new Error(`bench/src/cluster.ts does not start ${missing.join(', ')}: add them to SERVICES`);

/**
 * Services deployed as two processes of one image (k8s/base/sync.yaml and sync-events.yaml):
 * the first answers requests (PROCESS_ROLE=requests), this one consumes the service's events
 * (PROCESS_ROLE=events), so sync's activity log and profile consumers do not share the event loop
 * that answers the Sync API.
 */
const EVENTS_PROCESSES: Partial<Record<(typeof SERVICES)[number], string>> = { sync: 'sync-events' };

/**
 * The webhooks service may call the bench's own receiver on 127.0.0.1 over plain http (S12);
 * a deployment refuses both unless its operator allows them.
 */
const LOCAL_WEBHOOKS = { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' } as const;

/** One more process of a service, beside the first (S13's replicas). */
export interface Replica {
  readonly service: string;
  /** `sync#2`: how reports name it. */
  readonly label: string;
  readonly url: string;
  readonly child: Child;
}

export interface Cluster {
  readonly gatewayUrl: string;
  /**
   * The first gateway's GATEWAY_HOME_NAME (docs/operations/home-gateways.md): `127.0.0.1:<port>`,
   * as nginx's upstream would name it. Alone, it is every user's home; S16 adds named replicas.
   */
  readonly gatewayHomeName: string;
  readonly databaseUrl: string;
  readonly subjectPrefix: string;
  /** Each process's own HTTP base URL (health and metrics; the gateway's is also the API), by service name, and `sync-events`. */
  readonly serviceUrls: ReadonlyMap<string, string>;
  /** The processes, named as serviceUrls: each service's first, and the events process of a service split in two. */
  readonly children: ReadonlyMap<string, Child>;
  /**
   * Starts another replica of a service, as `npm run start:cluster -- --<service> N` does: the
   * same environment (so the same NATS queue group), a port of its own, ready before it returns.
   * Stopped by close() if still running; `child.stop()` stops it earlier (SIGTERM, graceful).
   * A gateway replica has no home name (every user's, as before homes) unless `env` (given the
   * replica's port) gives one.
   */
  startReplica(service: (typeof SERVICES)[number], env?: (port: number) => NodeJS.ProcessEnv): Promise<Replica>;
  /**
   * Stops a service's first process (SIGTERM, graceful) and starts it again on the same port
   * with `env` over the cluster's (S17: sync given a read replica; `{}` puts it back as it was),
   * ready before it returns. `children` then holds the new process.
   */
  restartService(service: (typeof SERVICES)[number], env: NodeJS.ProcessEnv): Promise<void>;
  close(): Promise<void>;
}

/**
 * BENCH_OTLP_ENDPOINT: every service sends its spans there (OTLP over HTTP, JSON), batched for
 * half a second, so a run's requests can be read as timelines (what a request waited for, service
 * by service and statement by statement). Tracing costs CPU of its own: for reading, not for ratios.
 */
function tracing(): NodeJS.ProcessEnv {
  const endpoint = process.env['BENCH_OTLP_ENDPOINT'];
  return endpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '500' } : {};
}

/**
 * Cluster mode as deployed: a fresh database, a subject prefix of its own on the shared NATS,
 * the one-shot `migrate` step per data service, then one process per service started from the
 * compiled entry a container runs. Default pool sizes and outbox polling, as in production.
 */
export async function startCluster(options: { cpuProfileDir?: string; natsUrl?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Cluster> {
  const database = await createTestDatabase('bench');
  const runTag = `bench-${randomBytes(4).toString('hex')}`;
  const subjectPrefix = `${runTag}.`;
  // Registered before anything else can fail, so a half-started cluster is still removed.
  const removeData = onCleanup(`database ${database.name} and streams of ${subjectPrefix}`, async () => {
    await deleteStreamsOfRun(runTag);
    await database.drop();
  });
  // Load generators hammer a few users far past the per-user rate limits: measured here is throughput, not the limiter.
  // `natsUrl`: a NATS of the scenario's own (S15's cluster), else the machine's shared server.
  // The allocator settings the services are deployed with (SERVICE_MALLOC_ENV, the Dockerfile's runtime stage) first.
  const env: NodeJS.ProcessEnv = { ...SERVICE_MALLOC_ENV, NATS_URL: options.natsUrl ?? TEST_NATS_URL, NATS_SUBJECT_PREFIX: subjectPrefix, DATABASE_URL: database.url, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...NO_RATE_LIMITS, ...ROOMY_PLANS, ...LOCAL_WEBHOOKS, ...options.env, ...tracing() };
  for (const service of DATA_SERVICES) await runToCompletion(`${service} migrate`, appEntry(service), ['migrate'], env);

  const children = new Map<string, Child>();
  const serviceUrls = new Map<string, string>();
  const spawnService = (service: (typeof SERVICES)[number], port: number, label: string, extraEnv: NodeJS.ProcessEnv = {}) => {
    // Profiles of the services on the hot path, written when they exit (at the end of the run).
    // The flags it is deployed with first (shared-runtime's serviceNodeFlags, as the Dockerfile), then the bench's own.
    const nodeArgs = [...serviceNodeFlags(service), ...(options.cpuProfileDir && PROFILED.has(service) ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir, '--cpu-prof-name', `${label.replace('#', '-')}.cpuprofile`] : [])];
    // Node flags for one service, for a look inside it (docs/performance/s6-memory.md: heap snapshots on a signal):
    // BENCH_NODE_ARGS_GATEWAY='--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp/snaps'.
    const extra = process.env[`BENCH_NODE_ARGS_${service.replace('-', '_').toUpperCase()}`];
    if (extra) nodeArgs.push(...extra.split(' ').filter(Boolean));
    return spawnNode(label, appEntry(service), ['serve'], { ...env, PORT: String(port), ...(DATA_SERVICES.has(service) ? {} : { DATABASE_URL: '' }), ...extraEnv }, { nodeArgs });
  };
  let gatewayHomeName = '';
  // A service split in two answers requests only; its replicas (startReplica) and restarts too.
  const roleOf = (service: (typeof SERVICES)[number]): NodeJS.ProcessEnv => (EVENTS_PROCESSES[service] ? { PROCESS_ROLE: 'requests' } : {});
  for (const service of SERVICES) {
    const port = await freePort();
    serviceUrls.set(service, `http://127.0.0.1:${port}`);
    // The gateway as deployed behind a consistent-hash balancer: named, so a write tells one home, not every gateway.
    if (service === 'gateway') gatewayHomeName = `127.0.0.1:${port}`;
    children.set(service, spawnService(service, port, service, service === 'gateway' ? { GATEWAY_HOME_NAME: gatewayHomeName } : roleOf(service)));
    const events = EVENTS_PROCESSES[service];
    if (events) {
      const eventsPort = await freePort();
      serviceUrls.set(events, `http://127.0.0.1:${eventsPort}`);
      children.set(events, spawnService(service, eventsPort, events, { PROCESS_ROLE: 'events' }));
    }
  }
  for (const [label, child] of children) await ready(label, child, serviceUrls.get(label)!);
  const replicas: Replica[] = [];
  return {
    gatewayUrl: serviceUrls.get('gateway')!,
    gatewayHomeName,
    databaseUrl: database.url,
    subjectPrefix,
    serviceUrls,
    children,
    async startReplica(service, replicaEnv = () => ({})) {
      const index = replicas.filter((replica) => replica.service === service).length + 2;
      const port = await freePort();
      const label = `${service}#${index}`;
      const child = spawnService(service, port, label, { ...roleOf(service), ...replicaEnv(port) });
      const replica = { service, label, url: `http://127.0.0.1:${port}`, child };
      replicas.push(replica);
      await ready(label, child, replica.url);
      return replica;
    },
    async restartService(service, extraEnv) {
      const url = serviceUrls.get(service)!;
      await children.get(service)!.stop();
      const child = spawnService(service, Number(new URL(url).port), service, {
        ...(service === 'gateway' ? { GATEWAY_HOME_NAME: gatewayHomeName } : roleOf(service)),
        ...extraEnv,
      });
      children.set(service, child);
      await ready(service, child, url);
    },
    async close() {
      for (const replica of [...replicas].reverse()) await replica.child.stop();
      for (const child of [...children.values()].reverse()) await child.stop();
      await removeData();
    },
  };
}

function ready(label: string, child: Child, url: string): Promise<true> {
  return until(
    async () => {
      if (child.process.exitCode !== null) throw new Error(`${label} exited with ${child.process.exitCode}: ${child.output()}`);
      return (await statusOf(`${url}/health/ready`)) === 200 ? true : undefined;
    },
    `${label} to report ready`,
    60_000,
  );
}
