import type { Logger } from '@doable/shared-logging';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { ObjectStoreBlobStore } from './object-store-blob-store';
import { S3BlobStore } from './s3-blob-store';
import type { StorageConfig } from './storage-config';

/** Injection token of the process's one BlobStore (the kernel provides it to every service). */
export const BLOB_STORE = Symbol('BLOB_STORE');

/**
 * The store a configuration names. The nats driver reuses a connection the process already
 * has (the event bus's), so files cost no extra connection per replica.
 */
export function blobStoreFromConfig(config: StorageConfig, deps: { natsConnection?: NatsConnection; logger?: Logger } = {}): BlobStore {
  switch (config.driver) {
    case 'local':
      return new LocalBlobStore(config.dir);
    case 'nats':
      if (!deps.natsConnection) throw new Error('the nats storage driver needs the process NATS connection (cluster mode)');
      return new ObjectStoreBlobStore(deps.natsConnection, { bucket: config.bucket, replicas: config.replicas, ...(deps.logger ? { logger: deps.logger } : {}) });
    case 's3':
      return new S3BlobStore(config);
  }
}

/** Releases what a store holds open (the S3 client's sockets); the NATS connection belongs to its owner. */
export function closeBlobStore(store: BlobStore): void {
  if (store instanceof S3BlobStore) store.close();
}
