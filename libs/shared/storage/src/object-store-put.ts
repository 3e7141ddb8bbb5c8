import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type JetStreamClient, type JetStreamManager, JsHeaders, type PubAck } from '@nats-io/jetstream';
import { headers, nuid } from '@nats-io/transport-node';
import { BlobTooLarge } from './blob-store';

/**
 * The metadata message of an object, field for field as @nats-io/obj 3.x writes it
 * (ObjectStoreImpl._put): what the library's info(), get() and delete(), and this driver's
 * readers, read back. Its digest is `SHA-256=` and the padded base64url of the bytes' SHA-256.
 */
export interface StoredObjectInfo {
  readonly bucket: string;
  readonly nuid: string;
  readonly size: number;
  readonly chunks: number;
  readonly name: string;
  readonly description: string;
  readonly options: { readonly max_chunk_size: number };
  readonly metadata?: Record<string, string>;
  readonly mtime: string;
  readonly digest: string;
  readonly deleted: boolean;
}

/** Where and how one object is written. */
export interface ObjectWriteTarget {
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly bucket: string;
  /** The bucket's stream, `OBJ_<bucket>`. */
  readonly stream: string;
  /** Bytes per chunk message (the library's 128 KiB, capped at the server's max_payload). */
  readonly chunkBytes: number;
  /** Chunk publishes awaiting JetStream's ack at once; also the most chunks this put holds. */
  readonly chunksInFlight: number;
  /** How long one publish may wait for its ack. */
  readonly ackTimeoutMs: number;
}

export interface ObjectWrite {
  readonly name: string;
  /** The meta subject: `$O.<bucket>.M.<name as padded base64url>`. */
  readonly metaSubject: string;
  readonly maxBytes?: number;
  readonly metadata?: Record<string, string>;
  /** The chunks of the object this one replaces, purged once the new metadata is live. */
  readonly replacesNuid?: string;
}

/**
 * Writes a stream as an Object Store object in the library's format, with several chunk
 * publishes in flight. The library's put awaits each 128 KiB chunk's ack before sending the next,
 * so every chunk costs a round trip through JetStream's file store; here up to `chunksInFlight`
 * acks are outstanding, and reading the source waits only when that many are (the backpressure,
 * and the bound on what a put holds). The library's batched ingest would do the same, but needs a
 * 2.12 server.
 *
 * As the library does: chunks under a fresh `$O.<bucket>.C.<nuid>`, then the metadata with a
 * subject rollup, so readers see the new object only once every chunk is stored; then the
 * replaced object's chunks go. On any failure (the source's error or abort, maxBytes, a refused
 * publish) the source is destroyed, every publish sent is waited for, and this put's chunks are
 * purged: no metadata was written, so the key keeps what it held.
 */
export async function putObject(target: ObjectWriteTarget, write: ObjectWrite, source: Readable): Promise<StoredObjectInfo> {
  const id = nuid.next();
  const chunkSubject = `$O.${target.bucket}.C.${id}`;
  const hash = createHash('sha256');
  /** Unacknowledged publishes, oldest first. */
  const acks: Array<Promise<PubAck>> = [];
  let lastSeq = 0;
  let size = 0;
  let chunks = 0;

  const settleOldest = async () => {
    const ack = await acks.shift()!;
    // Readers take chunks in stream order. One connection's publishes are stored in the order
    // sent; checked anyway, since a reordered object would only be found corrupt at its download.
    if (ack.seq <= lastSeq) throw new Error(`object ${JSON.stringify(write.name)}: chunk stored out of order (seq ${ack.seq} after ${lastSeq})`);
    lastSeq = ack.seq;
  };
  const publish = async (chunk: Buffer) => {
    if (acks.length >= target.chunksInFlight) await settleOldest();
    hash.update(chunk);
    size += chunk.length;
    chunks++;
    const ack = target.js.publish(chunkSubject, chunk, { timeout: target.ackTimeoutMs });
    // Awaited in turn by settleOldest; a rejection before its turn must not count as unhandled.
    ack.catch(() => undefined);
    acks.push(ack);
  };

  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let received = 0;
    for await (const piece of source as AsyncIterable<Buffer | string>) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
      received += bytes.length;
      if (write.maxBytes !== undefined && received > write.maxBytes) throw new BlobTooLarge(write.maxBytes);
      pending.push(bytes);
      pendingBytes += bytes.length;
      while (pendingBytes >= target.chunkBytes) {
        const joined = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
        await publish(joined.subarray(0, target.chunkBytes));
        const rest = joined.subarray(target.chunkBytes);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
      }
    }
    if (pendingBytes > 0) await publish(Buffer.concat(pending, pendingBytes));
    while (acks.length > 0) await settleOldest();

    const info: StoredObjectInfo = {
      bucket: target.bucket,
      nuid: id,
      size,
      chunks,
      name: write.name,
      description: '',
      options: { max_chunk_size: target.chunkBytes },
      ...(write.metadata ? { metadata: write.metadata } : {}),
      mtime: new Date().toISOString(),
      // The library's padded base64url: base64 with - and _, keeping the '='.
      digest: `SHA-256=${hash.digest('base64').replace(/\+/g, '-').replace(/\//g, '_')}`,
      deleted: false,
    };
    const rollup = headers();
    rollup.set(JsHeaders.RollupHdr, JsHeaders.RollupValueSubject);
    await target.js.publish(write.metaSubject, JSON.stringify(info), { headers: rollup, timeout: target.ackTimeoutMs });
    if (write.replacesNuid !== undefined) {
      // The new object is live; a failed cleanup must not report the put as failed (the library's choice too).
      await target.jsm.streams.purge(target.stream, { filter: `$O.${target.bucket}.C.${write.replacesNuid}` }).catch(() => undefined);
    }
    return info;
  } catch (err) {
    source.destroy();
    // Every publish sent lands or fails before the purge, so no chunk of this put outlives it.
    await Promise.allSettled(acks);
    // The caller must see why the put failed; a purge that fails too means NATS is gone, and says nothing new.
    await target.jsm.streams.purge(target.stream, { filter: chunkSubject }).catch(() => undefined);
    throw err;
  }
}
