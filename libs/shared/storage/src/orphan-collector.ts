import type { BlobStore } from './blob-store';

export interface CollectOrphansOptions {
  /** Objects younger than this are spared: an upload still being recorded is not an orphan yet. */
  readonly olderThanMs: number;
  /** Keys asked about at once (one isReferenced call, one query, per batch). */
  readonly batchSize?: number;
  readonly now?: () => Date;
}

export interface CollectOrphansResult {
  readonly examined: number;
  readonly deleted: number;
  readonly bytesFreed: number;
}

/**
 * Deletes the bytes nobody points at any more: walks `list(prefix)` in batches, asks the owner
 * which keys of a batch it still references (one question per batch, not per key), and deletes
 * the rest unless they are younger than the grace period. Objects come to exist before the row
 * that names them (the bytes are stored first, then recorded), so the grace period must be
 * longer than the slowest upload's put-to-record time; a record deleted later leaves bytes that
 * the next run collects. Safe to run on several replicas at once: deletes are idempotent.
 */
export async function collectOrphans(
  store: BlobStore,
  prefix: string,
  isReferenced: (keys: readonly string[]) => Promise<ReadonlySet<string>>,
  options: CollectOrphansOptions,
): Promise<CollectOrphansResult> {
  const batchSize = options.batchSize ?? 500;
  const cutoff = (options.now?.() ?? new Date()).getTime() - options.olderThanMs;
  let examined = 0;
  let deleted = 0;
  let bytesFreed = 0;
  let batch: Array<{ key: string; size: number }> = [];
  const sweep = async () => {
    if (batch.length === 0) return;
    const referenced = await isReferenced(batch.map((info) => info.key));
    for (const info of batch) {
      if (referenced.has(info.key)) continue;
      await store.delete(info.key);
      deleted++;
      bytesFreed += info.size;
    }
    batch = [];
  };
  for await (const info of store.list(prefix)) {
    examined++;
    if (info.modifiedAt.getTime() > cutoff) continue;
    batch.push({ key: info.key, size: info.size });
    if (batch.length >= batchSize) await sweep();
  }
  await sweep();
  return { examined, deleted, bytesFreed };
}
