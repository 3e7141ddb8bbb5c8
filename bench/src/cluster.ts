import { randomBytes } from 'node:crypto';
import { createTestDatabase, freePort, TEST_NATS_URL } from '@doable/shared-testing';
import { onCleanup } from './lifecycle';
import { ROOMY_PLANS } from './plans';
import { NO_RATE_LIMITS } from './rate-limits';
import { statusOf, until } from './poll';
import { appEntry, type Child, runToCompletion, spawnNode } from './processes';
import { deleteStreamsOfRun } from './run-streams';

/** Started in dependency order: the gateway last, so it never routes to a service not yet up. */
export const SERVICES = ['auth-oauth', 'plans', 'notifications', 'uploads', 'sync', 'rest', 'gateway'] as const;
const DATA_SERVICES: ReadonlySet<string> = new Set(['auth-oauth', 'plans', 'notifications', 'uploads', 'sync']);
const PROFILED: ReadonlySet<string> = new Set(['gateway', 'rest', 'sync']);

export interface Cluster {
  readonly gatewayUrl: string;
  readonly databaseUrl: string;
  readonly subjectPrefix: string;
  /** Each service's own HTTP base URL (health and metrics; the gateway's is also the API). */
  readonly serviceUrls: ReadonlyMap<string, string>;
  readonly children: ReadonlyMap<string, Child>;
  close(): Promise<void>;
}

/**
 * Cluster mode as deployed: a fresh database, a subject prefix of its own on the shared NATS,
 * the one-shot `migrate` step per data service, then one process per service started from the
 * compiled entry a container runs. Default pool sizes and outbox polling, as in production.
 */
export async function startCluster(options: { cpuProfileDir?: string } = {}): Promise<Cluster> {
  const database = await createTestDatabase('bench');
  const runTag = `bench-${randomBytes(4).toString('hex')}`;
  const subjectPrefix = `${runTag}.`;
  // Registered before anything else can fail, so a half-started cluster is still removed.
  const removeData = onCleanup(`database ${database.name} and streams of ${subjectPrefix}`, async () => {
    await deleteStreamsOfRun(runTag);
    await database.drop();
  });
  // Load generators hammer a few users far past the per-user rate limits: measured here is throughput, not the limiter.
  const env: NodeJS.ProcessEnv = { NATS_URL: TEST_NATS_URL, NATS_SUBJECT_PREFIX: subjectPrefix, DATABASE_URL: database.url, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...NO_RATE_LIMITS, ...ROOMY_PLANS };
  for (const service of DATA_SERVICES) await runToCompletion(`${service} migrate`, appEntry(service), ['migrate'], env);

  const children = new Map<string, Child>();
  const serviceUrls = new Map<string, string>();
  for (const service of SERVICES) {
    const port = await freePort();
    serviceUrls.set(service, `http://127.0.0.1:${port}`);
    // Profiles of the two services on the hot path, written when they exit (at the end of the run).
    const nodeArgs = options.cpuProfileDir && PROFILED.has(service) ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir, '--cpu-prof-name', `${service}.cpuprofile`] : [];
    children.set(service, spawnNode(service, appEntry(service), ['serve'], { ...env, PORT: String(port), ...(DATA_SERVICES.has(service) ? {} : { DATABASE_URL: '' }) }, { nodeArgs }));
  }
  for (const service of SERVICES) {
    const child = children.get(service)!;
    await until(
      async () => {
        if (child.process.exitCode !== null) throw new Error(`${service} exited with ${child.process.exitCode}: ${child.output()}`);
        return (await statusOf(`${serviceUrls.get(service)}/health/ready`)) === 200 ? true : undefined;
      },
      `${service} to report ready`,
      60_000,
    );
  }
  return {
    gatewayUrl: serviceUrls.get('gateway')!,
    databaseUrl: database.url,
    subjectPrefix,
    serviceUrls,
    children,
    async close() {
      for (const service of [...SERVICES].reverse()) await children.get(service)!.stop();
      await removeData();
    },
  };
}
