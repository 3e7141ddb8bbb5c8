import type { Readable } from 'node:stream';

/**
 * Where file bytes live: uploads, their thumbnails, and backups. One interface, three places
 * (STORAGE_DRIVER): a local folder (embedded mode, one process), NATS JetStream's Object Store
 * (a cluster's default: every replica already reaches NATS), or an S3-compatible bucket.
 *
 * Bytes always travel as streams: no method takes or returns a whole file in memory, so a
 * 50 MB upload costs a process a few buffers, not 50 MB.
 *
 * Keys are chosen by the owning service (`files/<id>/<random>`, `backups/<user>/<stamp>.zip`):
 * printable ASCII, `/`-separated, no `..` segment, at most 512 bytes (see checkBlobKey). A key
 * is never also the folder of another key (`a` and `a/b`): a local folder cannot hold both.
 */
export interface BlobStore {
  /** Which driver this is, for logs and /health. */
  readonly driver: 'local' | 'nats' | 's3';

  /**
   * Stores a stream under a key, replacing what was there. Resolves once every byte is durable.
   * With `maxBytes`, a stream longer than that is cut off: the put rejects with BlobTooLarge.
   * A failing source stream rejects the put the same way. Either way no partial bytes stay
   * behind, and the key keeps what it held before (nothing, for a new key).
   */
  put(key: string, source: Readable, options?: BlobPutOptions): Promise<BlobInfo>;

  /** The bytes under a key as a stream, with their size; null when nothing is stored there. */
  get(key: string): Promise<BlobRead | null>;

  /** Size, age (and, where the driver keeps it, the media type) without reading the bytes; null when absent. */
  stat(key: string): Promise<BlobInfo | null>;

  /** Removes a key; removing a missing key is not an error (collection may race a delete). */
  delete(key: string): Promise<void>;

  /**
   * Every object whose key starts with `prefix` (a plain string prefix, as in S3: `files/` or
   * `files/ab`), with its size and age: the orphan collector's walk. Finite, in no particular
   * order, read in pages: a bucket of a million keys never sits in memory at once.
   */
  list(prefix: string): AsyncIterable<BlobInfo>;
}

export interface BlobPutOptions {
  readonly maxBytes?: number;
  /** Kept by the nats and s3 drivers; the local driver does not keep it (the owning service records it). */
  readonly contentType?: string;
}

export interface BlobInfo {
  readonly key: string;
  readonly size: number;
  /** When the bytes were stored: the orphan collector spares what is younger than its grace period. */
  readonly modifiedAt: Date;
  readonly contentType?: string;
}

export interface BlobRead extends BlobInfo {
  readonly stream: Readable;
}

/** A put went past its maxBytes: the store kept nothing. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLarge';
  }
}

const KEY = /^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/;
const PREFIX = /^([A-Za-z0-9!_.*'()-]+\/)*[A-Za-z0-9!_.*'()-]*$/;

/** Refuses keys that could escape a folder or that a driver cannot store as they are. */
export function checkBlobKey(key: string): string {
  if (Buffer.byteLength(key) > 512 || !KEY.test(key) || key.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** A list prefix: '' (everything), whole folders (`files/`) or the start of a segment (`files/ab`). */
export function checkBlobPrefix(prefix: string): string {
  if (Buffer.byteLength(prefix) > 512 || !PREFIX.test(prefix) || prefix.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new Error(`invalid blob prefix: ${JSON.stringify(prefix)}`);
  }
  return prefix;
}
