import { ConfigError, redactConfig } from '@doable/shared-config';
import { createServiceDataSource, migrateDown, migrateUp, probeDatabase } from '@doable/shared-database';
import { createLogger, type Logger } from '@doable/shared-logging';
import { probeNats } from '@doable/shared-transport';
import type { z } from 'zod';
import { startBootHealthServer } from './boot/boot-health-server';
import { type StartDependency, StartupState, targetOf, waitForDependencies } from './boot/start-retry';
import { createServiceApp, type ServiceApp } from './create-service-app';
import { loadServiceConfig, type ServiceConfig } from './service/service-config';
import { watchParent } from './parent-watch';
import { startTracing } from './tracing/start-tracing';
import { stopGracefully } from './stop/stop-sequence';
import { stopSettings } from './stop/stop-settings';
import type { ServiceDefinition } from './service/service-definition';

export interface RunningService {
  readonly url: string;
  readonly service: ServiceApp;
  close(): Promise<void>;
}

/** Starts one service in cluster mode: NATS for messages and events, its own PostgreSQL schema. */
export async function startClusterService<Env extends z.ZodObject>(
  definition: ServiceDefinition<Env>,
  config: ServiceConfig<Env>,
  logger: Logger,
): Promise<RunningService> {
  const service = await createServiceApp(
    definition,
    config,
    {
      transport: { kind: 'nats', url: config.NATS_URL!, replicas: config.NATS_REPLICAS, subjectPrefix: config.NATS_SUBJECT_PREFIX, name: definition.name, replicaSilenceMs: config.REPLICA_SILENCE_MS },
      migrateOnStart: false,
    },
    logger,
  );
  await service.startMessaging();
  service.startRelay();
  const url = await service.listen();
  return { url, service, close: () => service.close() };
}

async function withDataSource<Env extends z.ZodObject>(definition: ServiceDefinition<Env>, config: ServiceConfig<Env>, work: (ds: import('typeorm').DataSource) => Promise<void>): Promise<void> {
  await withMigrationDataSource(definition, config.DATABASE_URL!, work);
}

/** A one-connection DataSource over the service's schema and migrations (its migrate step, and the test tiers' migrated template); nothing for a stateless service. */
export async function withMigrationDataSource<Env extends z.ZodObject>(definition: ServiceDefinition<Env>, databaseUrl: string, work: (ds: import('typeorm').DataSource) => Promise<void>): Promise<void> {
  if (!definition.database) return;
  const dataSource = createServiceDataSource({
    schema: definition.database.schema,
    url: databaseUrl,
    poolSize: 1,
    applicationName: `doable-${definition.name}-migrate`,
    migrations: definition.database.migrations,
  });
  await dataSource.initialize();
  try {
    await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** What a cluster service needs reachable before it can build its app. */
function startDependencies<Env extends z.ZodObject>(definition: ServiceDefinition<Env>, config: ServiceConfig<Env>): StartDependency[] {
  const dependencies: StartDependency[] = [{ name: 'broker', target: targetOf(config.NATS_URL!), probe: () => probeNats(config.NATS_URL!) }];
  if (definition.database) dependencies.push({ name: 'database', target: targetOf(config.DATABASE_URL!), probe: () => probeDatabase(config.DATABASE_URL!) });
  return dependencies;
}

/**
 * `serve`: health endpoints at once (live 200, ready 503 with the reason), the dependencies
 * waited for with backoff, then the app on the same port. A stop signal at any point ends
 * the process cleanly; so does the end of the supervisor that spawned it with an IPC channel.
 */
async function serve<Env extends z.ZodObject>(definition: ServiceDefinition<Env>, config: ServiceConfig<Env>, logger: Logger): Promise<void> {
  logger.info({ config: redactConfig(config) }, 'starting');
  const tracing = startTracing(config, `doable-${definition.name}`, logger);
  const aborted = new AbortController();
  let running: RunningService | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    aborted.abort();
    // While starting, `serve` below sees the abort and exits itself.
    if (!running) {
      logger.info({ signal }, 'shutting down');
      return;
    }
    const service = running.service;
    void stopGracefully(
      { ...service, close: () => service.close().finally(() => tracing.stop()) },
      { settings: stopSettings(config), logger, reason: signal, exit: (code) => process.exit(code) },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  watchParent((why) => stop(why));

  const state = new StartupState();
  const boot = await startBootHealthServer(state, config.PORT, config.HOST);
  try {
    await waitForDependencies(startDependencies(definition, config), { logger, state, signal: aborted.signal });
  } catch (err) {
    await boot.close();
    if (stopping) process.exit(0);
    throw err;
  }
  await boot.close();
  if (stopping) process.exit(0);
  try {
    // The port the health endpoints held (PORT=0: the one the OS gave), so probes keep their address.
    running = await startClusterService(definition, { ...config, PORT: boot.port }, logger);
  } catch (err) {
    // A dependency that went away between the probe and the start: the supervisor restarts us (with backoff).
    logger.error({ err: { message: err instanceof Error ? err.message : String(err) } }, 'start failed');
    process.exit(1);
  }
  if (stopping) {
    await running.close().catch(() => undefined);
    process.exit(0);
  }
  logger.info({ url: running.url }, 'ready');
}

/**
 * The process entry of every app: `serve` (default), `migrate` or `revert`. The same image runs
 * the service and its one-shot migration step (compose service, Kubernetes Job).
 */
export async function runService<Env extends z.ZodObject>(definition: ServiceDefinition<Env>, argv = process.argv.slice(2)): Promise<void> {
  const command = argv[0] ?? 'serve';
  let config: ServiceConfig<Env>;
  try {
    config = loadServiceConfig(definition, process.env, 'cluster');
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  switch (command) {
    case 'serve':
      await serve(definition, config, logger);
      return;
    case 'migrate':
      await withDataSource(definition, config, async (dataSource) => {
        const applied = await migrateUp(dataSource, { onLockRetry: (attempt, err) => logger.warn({ attempt, err: err.message }, 'a migration waited too long for a table lock; trying again') });
        logger.info({ applied }, applied.length ? 'migrations applied' : 'schema is up to date');
      });
      return;
    case 'revert':
      await withDataSource(definition, config, async (dataSource) => {
        await migrateDown(dataSource);
        logger.info('last migration reverted');
      });
      return;
    default:
      process.stderr.write(`usage: main.js [serve|migrate|revert]\n`);
      process.exit(2);
  }
}
