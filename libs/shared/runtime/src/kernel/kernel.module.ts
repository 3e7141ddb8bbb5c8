import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { BLOB_STORE, type BlobStore, blobStoreFromConfig, defaultStorageDir, resolveStorageConfig } from '@doable/shared-storage';
import { LOGGER, type Logger } from '@doable/shared-logging';
import {
  CorrelationInterceptor,
  ReplyChunkingInterceptor,
  createClientProxy,
  createEventBus,
  EVENT_BUS,
  type EventBus,
  JetStreamEventBus,
  KvReadMarks,
  openKvBucket,
  READ_MARKS_TTL_MS,
  readMarksBucket,
  RpcErrorFilter,
  ServiceClient,
  TRANSPORT_OPTIONS,
  type TransportOptions,
} from '@doable/shared-transport';
import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { HealthController } from '../health/health.controller';
import { EventLoopDelay, registerEventLoopDelay } from '../health/event-loop-delay';
import { CpuPool } from '../workers/cpu-pool';
import { registerHeapAfterGc } from '../metrics/heap-after-gc';
import { MessagingMetrics, requestMetrics } from '../metrics/messaging-metrics';
import { MetricsController } from '../metrics/metrics.controller';
import { RpcMetricsInterceptor } from '../metrics/rpc-metrics.interceptor';
import type { RuntimeConfig } from '../service/service-config';
import type { ServiceDefinition } from '../service/service-definition';
import { BlobStoreLifecycle, OWNS_BLOB_STORE } from './blob-store-lifecycle';
import { Database } from '../service/database';
import { EventConsumers } from './event-consumers';
import { StoppingState } from '../stop/stopping-state';
import { MessagingLifecycle, OWNS_EVENT_BUS } from './messaging-lifecycle';
import { ReadReplica } from '../read-replica/read-replica';
import { DATA_SOURCE, EVENT_LOOP_DELAY, METRICS_REGISTRY, READ_REPLICA, RPC_PROXY, SERVICE_CONFIG, SERVICE_DEFINITION } from '../service/tokens';

/** How a service reaches the outside world; chosen by the run mode, never by the service. */
export interface ServiceInfrastructure {
  readonly transport: TransportOptions;
  /** Embedded mode shares one in-process bus between all services; a cluster service makes its own. */
  readonly eventBus?: EventBus;
  /** Embedded mode shares one store between all services (one process, one folder); a cluster service makes its own. */
  readonly blobStore?: BlobStore;
  readonly migrateOnStart: boolean;
}

export interface KernelOptions {
  readonly definition: ServiceDefinition;
  readonly config: RuntimeConfig;
  readonly infrastructure: ServiceInfrastructure;
  readonly logger: Logger;
}

/**
 * What every service gets without asking: its config and logger, the typed service client,
 * the event bus, its database with outbox and idempotent consumers, health and metrics.
 */
@Global()
@Module({})
export class ServiceKernelModule {
  static forRoot({ definition, config, infrastructure, logger }: KernelOptions): DynamicModule {
    const { transport } = infrastructure;
    const providers: Provider[] = [
      { provide: SERVICE_DEFINITION, useValue: definition },
      { provide: SERVICE_CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: TRANSPORT_OPTIONS, useValue: transport },
      { provide: OWNS_EVENT_BUS, useValue: !infrastructure.eventBus },
      { provide: EVENT_LOOP_DELAY, useFactory: () => EventLoopDelay.shared() },
      // Threads start on the first task (none for a service that never uses it); closed on shutdown.
      { provide: CpuPool, useFactory: () => new CpuPool({ size: config.CPU_POOL_SIZE, maxQueue: config.CPU_POOL_QUEUE }) },
      {
        provide: METRICS_REGISTRY,
        useFactory: (delay: EventLoopDelay) => {
          const registry = new Registry();
          registry.setDefaultLabels({ service: definition.name });
          collectDefaultMetrics({ register: registry });
          // The leak signal: what the heap keeps after a full collection (RSS and heap used also hold garbage and reserve).
          registerHeapAfterGc(registry);
          // The responsiveness signal: how long work held the event loop, last second.
          registerEventLoopDelay(registry, delay);
          return registry;
        },
        inject: [EVENT_LOOP_DELAY],
      },
      { provide: RPC_PROXY, useFactory: () => createClientProxy(transport) },
      {
        provide: ServiceClient,
        useFactory: (proxy: ClientProxy, registry: Registry) => new ServiceClient(proxy, transport, config.REQUEST_TIMEOUT_MS, requestMetrics(registry)),
        inject: [RPC_PROXY, METRICS_REGISTRY],
      },
      { provide: EVENT_BUS, useFactory: () => infrastructure.eventBus ?? createEventBus(transport, logger) },
      { provide: OWNS_BLOB_STORE, useValue: !infrastructure.blobStore },
      {
        // The process's one store of file bytes; in a cluster the nats driver rides on the
        // event bus's connection, so files need no connection of their own.
        provide: BLOB_STORE,
        useFactory: (bus: EventBus) =>
          infrastructure.blobStore ??
          blobStoreFromConfig(
            resolveStorageConfig(definition.name, config, {
              mode: transport.kind === 'nats' ? 'cluster' : 'embedded',
              dir: defaultStorageDir(),
              subjectPrefix: transport.subjectPrefix,
              ...(transport.kind === 'nats' ? { replicas: transport.replicas } : {}),
            }),
            { ...(bus instanceof JetStreamEventBus ? { natsConnection: bus.connection } : {}), logger },
          ),
        inject: [EVENT_BUS],
      },
      BlobStoreLifecycle,
      StoppingState,
      EventConsumers,
      MessagingLifecycle,
      MessagingMetrics,
      RpcErrorFilter,
      CorrelationInterceptor,
      RpcMetricsInterceptor,
      ReplyChunkingInterceptor,
    ];
    const database = definition.database;
    if (database) {
      providers.push(
        {
          provide: DATA_SOURCE,
          useFactory: async () => {
            const dataSource = createServiceDataSource({
              schema: database.schema,
              url: config.DATABASE_URL!,
              poolSize: config.DATABASE_POOL_SIZE ?? 10,
              applicationName: `doable-${definition.name}`,
              migrations: database.migrations,
            });
            await dataSource.initialize();
            if (infrastructure.migrateOnStart || config.MIGRATE_ON_START) {
              const applied = await migrateUp(dataSource, { onLockRetry: (attempt, err) => logger.warn({ attempt, err: err.message }, 'a migration waited too long for a table lock; trying again') });
              if (applied.length > 0) logger.info({ applied }, 'migrations applied');
            }
            return dataSource;
          },
        },
        {
          // A streaming replica for the large reads (docs/operations/postgres-replica.md): a
          // cluster service that asks for one (definition.database.readReplica) and is given
          // DATABASE_REPLICA_URL. Its read marks live in a NATS KV bucket on the event bus's
          // connection, shared by every replica of the service. null: every read on the primary.
          provide: READ_REPLICA,
          useFactory: async (dataSource: DataSource, bus: EventBus, registry: Registry): Promise<ReadReplica | null> => {
            const url = config.DATABASE_REPLICA_URL;
            if (!database.readReplica || !url || !(bus instanceof JetStreamEventBus)) return null;
            const bucket = readMarksBucket(transport.subjectPrefix, definition.name);
            const marks = await openKvBucket(bus.connection, bucket, { ttl: READ_MARKS_TTL_MS, history: 1, replicas: transport.kind === 'nats' ? (transport.replicas ?? 1) : 1, allowDirect: false }, logger);
            const standby = () =>
              createServiceDataSource({ schema: database.schema, url, poolSize: config.DATABASE_REPLICA_POOL_SIZE ?? 10, applicationName: `doable-${definition.name}-reads`, migrations: [] });
            const replica = new ReadReplica(dataSource, standby, new KvReadMarks(marks), { waitMs: config.DATABASE_REPLICA_WAIT_MS ?? 50, maxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS ?? 5_000 }, logger, registry);
            replica.start();
            logger.info({ bucket }, 'read replica configured: large reads go to the standby when it has replayed their users\' last changes');
            return replica;
          },
          inject: [DATA_SOURCE, EVENT_BUS, METRICS_REGISTRY],
        },
        {
          provide: Database,
          useFactory: (dataSource: DataSource, bus: EventBus, replica: ReadReplica | null) =>
            new Database(dataSource, database.schema, new OutboxRelay(dataSource, database.schema, bus, logger, config.OUTBOX_POLL_MS), replica ?? undefined),
          inject: [DATA_SOURCE, EVENT_BUS, READ_REPLICA],
        },
      );
    }
    return {
      module: ServiceKernelModule,
      global: true,
      providers,
      controllers: [HealthController, MetricsController],
      exports: providers.map((provider) => (typeof provider === 'function' ? provider : provider.provide)),
    };
  }
}
