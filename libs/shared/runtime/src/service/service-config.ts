import { availableParallelism } from 'node:os';
import { baseEnvSchema, env, loadConfig } from '@doable/shared-config';
import { MAX_STREAM_REPLICAS } from '@doable/shared-transport';
import { defaultStorageDir, resolveStorageConfig, storageEnvSchema } from '@doable/shared-storage';
import { z } from 'zod';
import { stopEnvSchema } from '../stop/stop-settings';
import { tracingEnvSchema } from '../tracing/start-tracing';
import { readReplicaEnvSchema } from '../read-replica/read-replica-settings';

/** A process's share of its service's work: see PROCESS_ROLE below. */
export const PROCESS_ROLES = ['all', 'requests', 'events'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

const runtimeEnvSchema = baseEnvSchema.extend({
  HOST: z.string().default('0.0.0.0'),
  /** Namespaces subjects and the event stream, so deployments can share one NATS. */
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([a-z0-9-]+\.)+$/, 'must be dotted lower-case segments ending with "."')
    .default('doable.'),
  /** Apply pending migrations at start (development); clusters run the migrate step instead. */
  MIGRATE_ON_START: env.bool(false),
  OUTBOX_POLL_MS: env.positiveInt(1_000),
  /**
   * Cluster: a replica working on a request beats every third of this; silence this long means
   * it is gone, and the request goes to another replica (or fails with 503). 0: wait for
   * REQUEST_TIMEOUT_MS instead, as before.
   */
  REPLICA_SILENCE_MS: z.coerce.number().int().nonnegative().default(1_500),
  /**
   * Readiness fails while the event loop's delay (p99 of each second) stays above
   * EVENT_LOOP_DELAY_LIMIT_MS for EVENT_LOOP_DELAY_WINDOW_MS: a replica whose loop is held takes
   * no new traffic until it recovers. One slow second does not count; a sustained one does.
   */
  EVENT_LOOP_DELAY_LIMIT_MS: env.positiveInt(1_000),
  EVENT_LOOP_DELAY_WINDOW_MS: env.positiveInt(10_000),
  /**
   * The CPU pool (workers/cpu-pool.ts) for work a client sizes that stays CPU-heavy: threads at
   * most (default half the cores, at least one), and tasks waiting at most before a 503.
   */
  CPU_POOL_SIZE: env.positiveInt(Math.max(1, Math.floor(availableParallelism() / 2))),
  CPU_POOL_QUEUE: env.positiveInt(16),
  // Where file bytes live (storage-config.ts): every field has a default, so every service
  // may read it, and the kernel gives every service the process's one BlobStore.
  ...storageEnvSchema.shape,
  // How the process stops (stop/stop-settings.ts): the drain after readiness goes down, and the bound.
  ...stopEnvSchema.shape,
  // OpenTelemetry (tracing/start-tracing.ts): read by whatever starts the process's tracing.
  ...tracingEnvSchema.shape,
});

const clusterEnvSchema = runtimeEnvSchema.extend({
  /** One NATS server, or a cluster's servers separated by commas: the clients fail over between them. */
  NATS_URL: env.urlList(['nats', 'tls']),
  /**
   * Copies of the event stream and the key-value buckets (and, unless STORAGE_REPLICAS says
   * otherwise, the Object Store of files) in a NATS cluster: 3 for a 3-node cluster, which then
   * loses nothing when one node fails. 1 (the default) is what a single server can do.
   */
  NATS_REPLICAS: z.coerce.number().int().min(1).max(MAX_STREAM_REPLICAS).default(1),
  /**
   * What this process does of its service's work (docs/operations/process-roles.md): `all`; or
   * `requests` (answers the service's messages, consumes none of its events) and `events`
   * (consumes them, answers no message), two Deployments of one image, so that the consumers'
   * work (sync's activity log) does not share an event loop or cores with the requests.
   */
  PROCESS_ROLE: z.enum(PROCESS_ROLES).default('all'),
});
const databaseEnvSchema = z.object({ DATABASE_URL: env.url(['postgres', 'postgresql']), DATABASE_POOL_SIZE: env.positiveInt(10) });

export type RuntimeConfig = z.infer<typeof runtimeEnvSchema> & {
  readonly PORT: number;
  readonly NATS_URL?: string;
  readonly NATS_REPLICAS?: number;
  /** Cluster mode only; embedded mode's one process does everything (`all`). */
  readonly PROCESS_ROLE?: ProcessRole;
  readonly DATABASE_URL?: string;
  readonly DATABASE_POOL_SIZE?: number;
} & Partial<z.infer<typeof readReplicaEnvSchema>>;
export type ServiceConfig<Env extends z.ZodObject> = RuntimeConfig & z.infer<Env>;

export type RunMode = 'cluster' | 'embedded';

/** What a service's configuration is read for: the parts of its ServiceDefinition that shape it. */
export interface ConfiguredService<Env extends z.ZodObject> {
  readonly name: string;
  readonly defaultPort: number;
  /**
   * Present for a service that owns a schema: DATABASE_URL is then required in cluster mode.
   * `readReplica`: it may read from a streaming replica (the DATABASE_REPLICA_* settings, cluster mode only).
   */
  readonly database?: { readonly readReplica?: boolean };
  readonly env: Env;
}

/**
 * The service's whole configuration, validated at once. Cluster mode requires NATS_URL (and
 * DATABASE_URL for services that own data); embedded mode supplies both itself.
 */
export function loadServiceConfig<Env extends z.ZodObject>(
  definition: ConfiguredService<Env>,
  source: NodeJS.ProcessEnv,
  mode: RunMode,
): ServiceConfig<Env> {
  let schema: z.ZodObject = mode === 'cluster' ? clusterEnvSchema : runtimeEnvSchema;
  schema = schema.extend({ PORT: env.port(definition.defaultPort) });
  if (definition.database) schema = schema.extend(databaseEnvSchema.shape);
  if (definition.database?.readReplica && mode === 'cluster') schema = schema.extend(readReplicaEnvSchema.shape);
  schema = schema.extend(definition.env.shape);
  const config = loadConfig(definition.name, schema, source) as ServiceConfig<Env>;
  // Storage settings that cannot work (s3 without a bucket, nats in embedded mode) fail here, at start.
  resolveStorageConfig(definition.name, config, { mode, dir: defaultStorageDir(), subjectPrefix: config.NATS_SUBJECT_PREFIX, replicas: config.NATS_REPLICAS });
  return config;
}
