import type { Logger } from '@doable/shared-logging';
import { jetstreamManager } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { raiseStreamReplicas } from './stream-replicas';

export interface KvBucketOptions {
  readonly ttl: number;
  readonly history: number;
  /** NATS_REPLICAS (stream-replicas.ts). */
  readonly replicas: number;
}

/**
 * A key-value bucket, created with `replicas` copies or opened when another replica (or release)
 * made it first. Opening takes the bucket as it is, so one made with fewer copies is raised here
 * (stream `KV_<bucket>`; never lowered).
 */
export async function openKvBucket(connection: NatsConnection, bucket: string, options: KvBucketOptions, logger: Logger): Promise<KV> {
  const kvm = new Kvm(connection);
  const store = await kvm.create(bucket, { ttl: options.ttl, history: options.history, replicas: options.replicas }).catch(() => kvm.open(bucket));
  await raiseStreamReplicas(await jetstreamManager(connection), `KV_${bucket}`, options.replicas, logger);
  return store;
}
