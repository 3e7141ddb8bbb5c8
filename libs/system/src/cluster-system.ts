import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { loadConfig } from '@doable/shared-config';
import { loadServiceConfig, type RunningService, type ServiceName, startClusterService, startTracing, tracingEnvSchema } from '@doable/shared-runtime';
import { ALL_SERVICES, serviceByName } from './all-services';

export interface ClusterOptions {
  readonly databaseUrl: string;
  readonly natsUrl: string;
  /** Isolates this cluster's subjects and event stream on a shared NATS. */
  readonly subjectPrefix: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface ClusterSystem {
  readonly gatewayUrl: string;
  /** Stops one service (as a crash or a deploy would). */
  stop(name: ServiceName): Promise<void>;
  /** Starts a stopped service again. */
  start(name: ServiceName): Promise<void>;
  running(name: ServiceName): RunningService | undefined;
  close(): Promise<void>;
}

/**
 * Cluster mode in one test process: each service its own Nest app with its own NATS
 * connections and database pool, exactly as in separate containers; migrations run first,
 * as the migration Job does.
 */
export async function startClusterSystem(options: ClusterOptions): Promise<ClusterSystem> {
  const running = new Map<ServiceName, RunningService>();
  const configFor = (name: ServiceName) =>
    loadServiceConfig(
      serviceByName(name),
      {
        LOG_LEVEL: 'warn',
        OUTBOX_POLL_MS: '200',
        ...options.env,
        DATABASE_URL: options.databaseUrl,
        DATABASE_POOL_SIZE: '4',
        NATS_URL: options.natsUrl,
        NATS_SUBJECT_PREFIX: options.subjectPrefix,
        PORT: '0',
        HOST: '127.0.0.1',
      },
      'cluster',
    );

  for (const definition of ALL_SERVICES) {
    if (!definition.database) continue;
    const config = configFor(definition.name);
    const dataSource = createServiceDataSource({ schema: definition.database.schema, url: config.DATABASE_URL!, poolSize: 1, applicationName: 'migrate', migrations: definition.database.migrations });
    await dataSource.initialize();
    await migrateUp(dataSource).finally(() => dataSource.destroy());
  }

  // One process here, so one tracer provider for every service (a deployed service starts its own in runService).
  const tracing = startTracing(loadConfig('tracing', tracingEnvSchema, options.env ?? {}), 'doable-cluster', createLogger('cluster', 'warn'));
  const start = async (name: ServiceName) => {
    if (running.has(name)) return;
    const config = configFor(name);
    running.set(name, await startClusterService(serviceByName(name), config, createLogger(name, config.LOG_LEVEL)));
  };
  const stop = async (name: ServiceName) => {
    const service = running.get(name);
    running.delete(name);
    await service?.close();
  };
  try {
    for (const definition of ALL_SERVICES) await start(definition.name);
  } catch (err) {
    for (const name of [...running.keys()].reverse()) await stop(name);
    await tracing.stop();
    throw err;
  }
  return {
    gatewayUrl: running.get('gateway')!.url,
    start,
    stop,
    running: (name) => running.get(name),
    async close() {
      // The edge first, so no new request comes in; then every other service at once: each
      // waits out its transport's grace period (in-flight messages), and one after another
      // that is half a second per service for nothing.
      await stop('gateway');
      await Promise.all([...running.keys()].map((name) => stop(name)));
      await tracing.stop();
    },
  };
}
