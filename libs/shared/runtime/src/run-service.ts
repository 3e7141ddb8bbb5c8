import { ConfigError, redactConfig } from '@doable/shared-config';
import { createServiceDataSource, migrateDown, migrateUp } from '@doable/shared-database';
import { createLogger, type Logger } from '@doable/shared-logging';
import type { z } from 'zod';
import { createServiceApp, type ServiceApp } from './create-service-app';
import { loadServiceConfig, type ServiceConfig } from './service-config';
import type { ServiceDefinition } from './service-definition';

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
      transport: { kind: 'nats', url: config.NATS_URL!, subjectPrefix: config.NATS_SUBJECT_PREFIX, name: definition.name, replicaSilenceMs: config.REPLICA_SILENCE_MS },
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
  if (!definition.database) return;
  const dataSource = createServiceDataSource({
    schema: definition.database.schema,
    url: config.DATABASE_URL!,
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
    case 'serve': {
      logger.info({ config: redactConfig(config) }, 'starting');
      const running = await startClusterService(definition, config, logger);
      logger.info({ url: running.url }, 'ready');
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        running.close().then(
          () => process.exit(0),
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
      return;
    }
    case 'migrate':
      await withDataSource(definition, config, async (dataSource) => {
        const applied = await migrateUp(dataSource);
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
