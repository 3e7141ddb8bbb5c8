import { ConfigError, env } from '@doable/shared-config';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * Where a process keeps file bytes. Every field has a default, so a service that never touches
 * files is not burdened: embedded mode stores under the data folder, a cluster in NATS's Object
 * Store (already running), and S3 is one variable plus its bucket and credentials.
 */
export const storageEnvSchema = z.object({
  /** `local` (a folder: embedded mode's default), `nats` (JetStream Object Store: a cluster's default) or `s3`. */
  STORAGE_DRIVER: z.enum(['local', 'nats', 's3']).optional(),
  /** local: the folder (embedded mode's default: `<data dir>/files`). */
  STORAGE_DIR: z.string().min(1).optional(),
  /** nats: the Object Store bucket (default: the subject prefix's name + `-files`, e.g. `doable-files`). */
  STORAGE_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_" only')
    .optional(),
  /** nats: copies of each object in a NATS cluster (default NATS_REPLICAS, else 1). */
  STORAGE_REPLICAS: z.coerce.number().int().positive().optional(),
  /** s3: an S3-compatible endpoint (MinIO, R2, Ceph…); unset for AWS. */
  S3_ENDPOINT: env.url(['http', 'https']).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** Unset: the SDK's default chain (environment, instance or pod role). Never logged (redactConfig masks `key`/`secret`). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs (`endpoint/bucket/key`): what MinIO and most S3-compatible servers need. */
  S3_FORCE_PATH_STYLE: env.bool(false),
});

export type StorageEnv = z.infer<typeof storageEnvSchema>;

export type StorageConfig =
  | { readonly driver: 'local'; readonly dir: string }
  | { readonly driver: 'nats'; readonly bucket: string; readonly replicas: number }
  | {
      readonly driver: 's3';
      readonly bucket: string;
      readonly region: string;
      readonly endpoint?: string;
      readonly forcePathStyle: boolean;
      readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
    };

export interface StorageDefaults {
  readonly mode: 'embedded' | 'cluster';
  /** The folder for the local driver when STORAGE_DIR is unset. */
  readonly dir: string;
  /** Names the default Object Store bucket, so deployments sharing one NATS keep their files apart. */
  readonly subjectPrefix: string;
  /** The copies of the deployment's other JetStream streams (NATS_REPLICAS): the bucket's unless STORAGE_REPLICAS is set. */
  readonly replicas?: number;
}

/** The default Object Store bucket of a deployment: `doable.` gives `doable-files`. */
export function defaultStorageBucket(subjectPrefix: string): string {
  const name = subjectPrefix.replace(/\.+$/, '').replace(/[^A-Za-z0-9_-]/g, '-');
  return `${name || 'doable'}-files`;
}

/** The folder local storage uses when nothing says otherwise: beside the data, or under the working folder. */
export function defaultStorageDir(dataDir = 'data'): string {
  return join(dataDir, 'files');
}

/**
 * The validated storage settings as one value per driver. Fails (ConfigError, listing every
 * problem) on settings that cannot work, at start-up rather than at the first upload.
 */
export function resolveStorageConfig(service: string, values: StorageEnv, defaults: StorageDefaults): StorageConfig {
  const driver = values.STORAGE_DRIVER ?? (defaults.mode === 'embedded' ? 'local' : 'nats');
  switch (driver) {
    case 'local':
      return { driver, dir: values.STORAGE_DIR ?? defaults.dir };
    case 'nats':
      if (defaults.mode === 'embedded') throw new ConfigError(service, ['STORAGE_DRIVER: nats needs cluster mode (embedded mode runs without NATS); use local or s3']);
      return { driver, bucket: values.STORAGE_BUCKET ?? defaultStorageBucket(defaults.subjectPrefix), replicas: values.STORAGE_REPLICAS ?? defaults.replicas ?? 1 };
    case 's3': {
      const problems: string[] = [];
      if (!values.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE_DRIVER is s3');
      if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY)) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither (the SDK then finds credentials itself)');
      if (problems.length > 0) throw new ConfigError(service, problems);
      return {
        driver,
        bucket: values.S3_BUCKET!,
        region: values.S3_REGION,
        forcePathStyle: values.S3_FORCE_PATH_STYLE,
        ...(values.S3_ENDPOINT ? { endpoint: values.S3_ENDPOINT } : {}),
        ...(values.S3_ACCESS_KEY_ID && values.S3_SECRET_ACCESS_KEY ? { credentials: { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY } } : {}),
      };
    }
  }
}
