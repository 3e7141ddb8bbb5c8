import { startEmbeddedPostgres, type EmbeddedPostgres } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { createServiceApp, loadServiceConfig, type ServiceApp, type Stoppable, startTracing, tracingEnvSchema } from '@doable/shared-runtime';
import { env as sharedEnv, loadConfig } from '@doable/shared-config';
import { blobStoreFromConfig, type BlobStore, closeBlobStore, resolveStorageConfig, storageEnvSchema } from '@doable/shared-storage';
import { InProcessBroker, InProcessEventBus } from '@doable/shared-transport';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SERVICES } from './all-services';

export interface EmbeddedOptions {
  /** Where PGlite keeps the data; `memory://` for a throwaway system (tests). */
  readonly dataDir: string;
  /** Gateway port; 0 picks a free one. */
  readonly port: number;
  /** Where the local store keeps file bytes unless STORAGE_DIR says otherwise; absent: a temporary folder, removed at close (tests). */
  readonly filesDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** A throwaway database's starting point: an archive from dumpEmbeddedPostgres (tests: migrated once per run). */
  readonly initialData?: string;
  /**
   * The database's thread ended on its own (see EmbeddedPostgresOptions.onLost). By default the
   * process ends with code 1 and the reason on stderr: without its database the product can only
   * answer errors, and a supervisor restarts a process that exits, not one that limps on.
   */
  readonly onDatabaseLost?: (error: Error) => void;
}

/** Stoppable: `npm start` stops it with the same sequence (stopGracefully) as a cluster service. */
export interface EmbeddedSystem extends Stoppable {
  readonly url: string;
  readonly databaseUrl: string;
  /** The OS id of the thread PGlite runs in (Linux only; the bench reads its CPU time). */
  readonly databaseThreadId?: number;
  readonly services: ReadonlyMap<string, ServiceApp>;
  /** Every service, the gateway (the front door) first, then the database and the files. */
  close(): Promise<void>;
}

const POOL_PER_SERVICE = 4;

/**
 * The whole product in one process: PGlite served over the Postgres wire protocol from a worker
 * thread of its own, the in-process broker and event bus, and every service built exactly as in
 * a cluster.
 */
export async function startEmbeddedSystem(options: EmbeddedOptions): Promise<EmbeddedSystem> {
  const env = options.env ?? process.env;
  const database: EmbeddedPostgres = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: 0,
    maxConnections: ALL_SERVICES.length * POOL_PER_SERVICE + 8,
    initialData: options.initialData,
    onLost: options.onDatabaseLost ?? exitOnDatabaseLost,
  });
  const broker = new InProcessBroker();
  const subjectPrefix = 'doable.';
  const eventBus = new InProcessEventBus(broker, subjectPrefix);
  const services = new Map<string, ServiceApp>();
  const files = await openFiles(env, options.filesDir, subjectPrefix);
  // One process, so one tracer provider for every service (the span names say which part made each).
  const tracingConfig = loadConfig('tracing', tracingEnvSchema.extend({ LOG_LEVEL: sharedEnv.logLevel() }), env);
  const tracing = startTracing(tracingConfig, 'doable', createLogger('tracing', tracingConfig.LOG_LEVEL));
  const close = async () => {
    await closeAll(services, database);
    await files.close();
    await tracing.stop();
  };
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
        { transport: { kind: 'in-process', broker, subjectPrefix, name: definition.name }, eventBus, blobStore: files.store, migrateOnStart: true },
        logger,
      );
      services.set(definition.name, service);
    }
    // Every consumer exists before any outbox is relayed: in-process delivery only reaches
    // consumers that are registered (the outbox keeps what was not delivered).
    for (const service of services.values()) await service.startMessaging();
    for (const service of services.values()) service.startRelay();
    const url = await services.get('gateway')!.listen();
    const each = () => [...services.values()];
    return {
      url,
      databaseUrl: database.url,
      databaseThreadId: database.threadId,
      services,
      close,
      markStopping: () => each().forEach((service) => service.markStopping()),
      stillOpen: () => Object.fromEntries(each().map((service) => [service.name, service.stillOpen()])),
      forceClose: () => each().forEach((service) => service.forceClose()),
    };
  } catch (err) {
    await close();
    throw err;
  }
}

function exitOnDatabaseLost(error: Error): void {
  process.stderr.write(`Doable stops: ${error.message}\n`);
  process.exit(1);
}

/** The one store of file bytes every service of the process shares (a folder, unless STORAGE_DRIVER=s3). */
async function openFiles(env: NodeJS.ProcessEnv, filesDir: string | undefined, subjectPrefix: string): Promise<{ store: BlobStore; close(): Promise<void> }> {
  const values = loadConfig('storage', storageEnvSchema, env);
  const temporary = values.STORAGE_DIR || filesDir ? undefined : await mkdtemp(join(tmpdir(), 'doable-files-'));
  const store = blobStoreFromConfig(resolveStorageConfig('storage', values, { mode: 'embedded', dir: filesDir ?? temporary!, subjectPrefix }));
  return {
    store,
    async close() {
      closeBlobStore(store);
      if (temporary) await rm(temporary, { recursive: true, force: true });
    },
  };
}

async function closeAll(services: Map<string, ServiceApp>, database: EmbeddedPostgres): Promise<void> {
  for (const service of [...services.values()].reverse()) await service.close().catch(() => undefined);
  await database.close();
}
