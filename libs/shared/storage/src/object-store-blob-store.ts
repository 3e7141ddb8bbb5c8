import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { AckPolicy, DeliverPolicy, type JetStreamClient, type JetStreamManager, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { type ObjectInfo, type ObjectStore, Objm, setSha256Backend, StorageType } from '@nats-io/obj';
import { type BlobInfo, type BlobPutOptions, type BlobRead, type BlobStore, checkBlobKey, checkBlobPrefix } from './blob-store';
import type { Logger } from '@doable/shared-logging';
import { raiseStreamReplicas } from '@doable/shared-transport';
import { putObject } from './object-store-put';

/**
 * How long one chunk's publish may wait for JetStream's ack. The client's default (5 s) fails a
 * 50 MB upload whenever the server is briefly busy (seen on a loaded CI machine); a chunk is
 * 128 KiB, so a longer wait costs nothing when all is well.
 */
const CHUNK_ACK_TIMEOUT_MS = 30_000;

export interface ObjectStoreBlobStoreOptions {
  /** The Object Store bucket (its stream is `OBJ_<bucket>`); created on first use. */
  readonly bucket: string;
  /** Copies the stream keeps in a NATS cluster (1 on a single server). */
  readonly replicas?: number;
  /** Where a raise of an existing bucket's copies is reported. */
  readonly logger?: Logger;
}

/** The library's chunk size (its default max_chunk_size): objects written here look like its own. */
const CHUNK_BYTES = 128 * 1024;
/**
 * Chunk publishes awaiting JetStream's ack per upload: enough to keep the server's file store
 * busy instead of waiting a round trip per chunk, and at most 1 MiB of chunks held per upload.
 */
const CHUNKS_IN_FLIGHT = 8;
/** Chunks read ahead of a reader: with 128 KiB chunks, at most 1 MiB in flight per download. */
const READ_AHEAD_CHUNKS = 8;
/** Objects' metadata read per page by list(). */
const LIST_PAGE = 256;
/** How long a server-side reader outlives a vanished client before the server removes it. */
const READER_IDLE_MS = 60_000;
const FETCH_EXPIRES_MS = 30_000;

/**
 * NATS JetStream's Object Store: a cluster's default store, since every replica already reaches
 * NATS and no other service has to be run. Objects are cut into 128 KiB chunk messages under
 * `$O.<bucket>.C.<nuid>` and described by one metadata message under `$O.<bucket>.M.<name>`.
 *
 * put, get and list do not use the client library's own. Its put awaits each chunk's
 * acknowledgement before sending the next (a round trip through the file store per 128 KiB), so
 * put writes the library's format itself with several chunks in flight (object-store-put.ts);
 * info() and the library's get() and delete() read what it writes. The library's get() enqueues
 * every chunk a push consumer delivers without waiting for the reader, so one slow download would
 * hold the whole object in memory, and its list() gathers every object of the bucket into one
 * array. Both read through a pull consumer here instead, a few messages per request, only as fast as
 * the caller reads.
 */
/** The JetStream stream behind a bucket (to remove a test's bucket, or to inspect it with `nats stream info`). */
export function objectStoreStreamName(bucket: string): string {
  return `OBJ_${bucket}`;
}

export class ObjectStoreBlobStore implements BlobStore {
  readonly driver = 'nats' as const;
  private opening?: Promise<Opened>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: ObjectStoreBlobStoreOptions,
  ) {
    // Node's hashing instead of the library's pure-JS default: several times faster on big
    // objects. The choice is process-wide, and every Object Store user here runs on Node.
    setSha256Backend('native');
  }

  get bucket(): string {
    return this.options.bucket;
  }

  private get streamName(): string {
    return objectStoreStreamName(this.options.bucket);
  }

  private open(): Promise<Opened> {
    // Created on first use (creating an existing bucket opens it, so replicas may race);
    // a failure is not remembered, so the next call tries again.
    this.opening ??= (async () => {
      const js = jetstream(this.nc, { timeout: CHUNK_ACK_TIMEOUT_MS });
      const replicas = this.options.replicas ?? 1;
      const store = await new Objm(js).create(this.options.bucket, { storage: StorageType.File, replicas });
      const jsm = await jetstreamManager(this.nc);
      // Creating an existing bucket opens it as it is: one made with fewer copies is raised, as
      // the event stream is (stream-replicas.ts). The server copies the files in the background.
      await raiseStreamReplicas(jsm, this.streamName, replicas, this.options.logger);
      return { store, js, jsm };
    })().catch((err: unknown) => {
      this.opening = undefined;
      throw err;
    });
    return this.opening;
  }

  async put(key: string, source: Readable, options: BlobPutOptions = {}): Promise<BlobInfo> {
    try {
      checkBlobKey(key);
      const { store, js, jsm } = await this.open();
      const replaced = await store.info(key);
      const target = {
        js,
        jsm,
        bucket: this.options.bucket,
        stream: this.streamName,
        // A chunk is one message: never above what the server accepts (1 MiB by default).
        chunkBytes: Math.min(CHUNK_BYTES, this.nc.info?.max_payload ?? CHUNK_BYTES),
        chunksInFlight: CHUNKS_IN_FLIGHT,
        ackTimeoutMs: CHUNK_ACK_TIMEOUT_MS,
      };
      const write = {
        name: key,
        metaSubject: this.metaSubject(key),
        maxBytes: options.maxBytes,
        ...(options.contentType ? { metadata: { contentType: options.contentType } } : {}),
        ...(replaced && !replaced.deleted ? { replacesNuid: replaced.nuid } : {}),
      };
      return toBlobInfo(await putObject(target, write, source));
    } catch (err) {
      // putObject destroys the source on its own failures; this covers a key or bucket refused before it began.
      source.destroy();
      throw err;
    }
  }

  async get(key: string): Promise<BlobRead | null> {
    checkBlobKey(key);
    const { store } = await this.open();
    const raw = await store.info(key);
    if (!raw || raw.deleted) return null;
    return { ...toBlobInfo(raw), stream: Readable.from(this.chunks(raw), { objectMode: false, highWaterMark: 128 * 1024 }) };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    checkBlobKey(key);
    const { store } = await this.open();
    const info = await store.info(key);
    return info && !info.deleted ? toBlobInfo(info) : null;
  }

  async delete(key: string): Promise<void> {
    checkBlobKey(key);
    const { store, jsm } = await this.open();
    const info = await store.info(key);
    if (!info) return;
    // Purging the metadata subject (instead of the library's delete, which leaves a "deleted"
    // marker per key forever) keeps a bucket whose files come and go from growing.
    await jsm.streams.purge(this.streamName, { filter: this.metaSubject(key) });
    await jsm.streams.purge(this.streamName, { filter: this.chunkSubject(info.nuid) });
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    checkBlobPrefix(prefix);
    for await (const message of this.read(`$O.${this.options.bucket}.M.>`, DeliverPolicy.LastPerSubject, LIST_PAGE)) {
      const info = message.json<ObjectInfo>();
      if (!info.deleted && info.name.startsWith(prefix)) yield toBlobInfo(info);
    }
  }

  /** The object's chunks in order, checked against its size and SHA-256 digest at the end. */
  private async *chunks(info: ObjectInfo): AsyncGenerator<Buffer> {
    const hash = createHash('sha256');
    let size = 0;
    let chunks = 0;
    for await (const message of this.read(this.chunkSubject(info.nuid), DeliverPolicy.All, READ_AHEAD_CHUNKS, info.chunks)) {
      const chunk = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
      hash.update(chunk);
      size += chunk.length;
      chunks++;
      yield chunk;
    }
    const expected = info.digest.startsWith('SHA-256=') ? Buffer.from(info.digest.slice('SHA-256='.length), 'base64url') : null;
    if (chunks !== info.chunks || size !== info.size || !expected?.equals(hash.digest())) {
      throw new Error(`object ${JSON.stringify(info.name)} in bucket ${this.options.bucket} is incomplete or corrupt`);
    }
  }

  /**
   * The messages of a subject through an ephemeral pull consumer, `page` at a time: the next
   * page is requested only when the caller has taken the previous one. Stops after `total`
   * messages, or when the server says none are pending.
   */
  private async *read(subject: string, deliverPolicy: DeliverPolicy, page: number, total?: number): AsyncGenerator<JsMsg> {
    if (total === 0) return;
    const { jsm } = await this.open();
    const created = await jsm.consumers.add(this.streamName, {
      filter_subject: subject,
      deliver_policy: deliverPolicy,
      ack_policy: AckPolicy.None,
      mem_storage: true,
      num_replicas: 1,
      inactive_threshold: nanos(READER_IDLE_MS),
    });
    try {
      let remaining = total ?? created.num_pending;
      const consumer = await jetstream(this.nc).consumers.get(this.streamName, created.name);
      while (remaining > 0) {
        // Take the whole page before handing any of it out: the fetch is then complete, and a
        // slow reader holds at most one page.
        const messages: JsMsg[] = [];
        for await (const message of await consumer.fetch({ max_messages: Math.min(page, remaining), expires: FETCH_EXPIRES_MS })) messages.push(message);
        if (messages.length === 0) {
          // A listing whose last entries were deleted meanwhile simply ends; missing chunks do not.
          if (total === undefined) return;
          throw new Error(`no messages arrived on ${subject} within ${FETCH_EXPIRES_MS} ms`);
        }
        for (const message of messages) {
          // A listing goes on while the server has more (objects put meanwhile are included,
          // objects deleted meanwhile are skipped); chunks are counted.
          remaining = total === undefined ? message.info.pending : remaining - 1;
          yield message;
        }
      }
    } finally {
      await jsm.consumers.delete(this.streamName, created.name).catch(() => undefined);
    }
  }

  private chunkSubject(nuid: string): string {
    return `$O.${this.options.bucket}.C.${nuid}`;
  }

  private metaSubject(key: string): string {
    // The library's encoding of object names in subjects: base64url with its padding.
    return `$O.${this.options.bucket}.M.${Buffer.from(key).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')}`;
  }
}

interface Opened {
  readonly store: ObjectStore;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
}

function toBlobInfo(info: Pick<ObjectInfo, 'name' | 'size' | 'mtime' | 'metadata'>): BlobInfo {
  const contentType = info.metadata?.['contentType'];
  return { key: info.name, size: info.size, modifiedAt: new Date(info.mtime), ...(contentType ? { contentType } : {}) };
}
