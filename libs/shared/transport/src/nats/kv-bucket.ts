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
  /**
   * Whether any of the stream's copies may answer a get (JetStream's direct get). False: every
   * get goes to the stream's leader, so it sees every write that was acknowledged before it
   * (what a read-your-writes mark needs in a NATS cluster). Absent: what the server allows.
   */
  readonly allowDirect?: boolean;
}

/**
 * A key-value bucket, created with `replicas` copies or opened when another replica (or release)
 * made it first. Opening takes the bucket as it is, so one made with fewer copies is raised here
 * (stream `KV_<bucket>`; never lowered).
 */
export async function openKvBucket(connection: NatsConnection, bucket: string, options: KvBucketOptions, logger: Logger): Promise<KV> {
  const kvm = new Kvm(connection);
  const store = await kvm
    .create(bucket, { ttl: options.ttl, history: options.history, replicas: options.replicas, ...(options.allowDirect === undefined ? {} : { allow_direct: options.allowDirect }) })
    .catch(() => kvm.open(bucket));
  await raiseStreamReplicas(await jetstreamManager(connection), `KV_${bucket}`, options.replicas, logger);
  return store;
}
