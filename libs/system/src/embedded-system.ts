import { startEmbeddedPostgres, type EmbeddedPostgres } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { createServiceApp, loadServiceConfig, type ServiceApp } from '@doable/shared-runtime';
import { InProcessBroker, InProcessEventBus } from '@doable/shared-transport';
import { ALL_SERVICES } from './all-services';

export interface EmbeddedOptions {
  /** Where PGlite keeps the data; `memory://` for a throwaway system (tests). */
  readonly dataDir: string;
  /** Gateway port; 0 picks a free one. */
  readonly port: number;
  readonly env?: NodeJS.ProcessEnv;
}

export interface EmbeddedSystem {
  readonly url: string;
  readonly databaseUrl: string;
  readonly services: ReadonlyMap<string, ServiceApp>;
  close(): Promise<void>;
}

const POOL_PER_SERVICE = 4;

/**
 * The whole product in one process: PGlite served over the Postgres wire protocol, the
 * in-process broker and event bus, and every service built exactly as in a cluster.
 */
export async function startEmbeddedSystem(options: EmbeddedOptions): Promise<EmbeddedSystem> {
  const env = options.env ?? process.env;
  const database: EmbeddedPostgres = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: 0,
    maxConnections: ALL_SERVICES.length * POOL_PER_SERVICE + 8,
  });
  const broker = new InProcessBroker();
  const subjectPrefix = 'doable.';
  const eventBus = new InProcessEventBus(broker, subjectPrefix);
  const services = new Map<string, ServiceApp>();
  try {
    for (const definition of ALL_SERVICES) {
      const config = loadServiceConfig(
        definition,
        {
          LOG_LEVEL: 'warn',
          // Objects' `url` fields point at this gateway unless the operator says otherwise.
          ...(options.port > 0 ? { PUBLIC_URL: `http://${env['HOST'] && env['HOST'] !== '0.0.0.0' ? env['HOST'] : '127.0.0.1'}:${options.port}` } : {}),
          ...env,
          DATABASE_URL: database.url,
          DATABASE_POOL_SIZE: String(POOL_PER_SERVICE),
          NATS_SUBJECT_PREFIX: subjectPrefix,
          PORT: definition.name === 'gateway' ? String(options.port) : '0',
          HOST: definition.name === 'gateway' ? (env['HOST'] ?? '127.0.0.1') : '127.0.0.1',
        },
        'embedded',
      );
      const logger = createLogger(definition.name, config.LOG_LEVEL);
      const service = await createServiceApp(
        definition,
        config,
        { transport: { kind: 'in-process', broker, subjectPrefix, name: definition.name }, eventBus, migrateOnStart: true },
        logger,
      );
      services.set(definition.name, service);
    }
    // Every consumer exists before any outbox is relayed: in-process delivery only reaches
    // consumers that are registered (the outbox keeps what was not delivered).
    for (const service of services.values()) await service.startMessaging();
    for (const service of services.values()) service.startRelay();
    const url = await services.get('gateway')!.listen();
    return { url, databaseUrl: database.url, services, close: () => closeAll(services, database) };
  } catch (err) {
    await closeAll(services, database);
    throw err;
  }
}

async function closeAll(services: Map<string, ServiceApp>, database: EmbeddedPostgres): Promise<void> {
  for (const service of [...services.values()].reverse()) await service.close().catch(() => undefined);
  await database.close();
}
