/**
 * Bodies written again and again (kept poll answers, unchanged-polls.ts), with the ETag made for
 * them at their first write (undefined until then): a repeat is not hashed again. Weak: a body
 * the poll answers forget is forgotten here too. Here, not beside the HTTP writer
 * (edge/reply-body.ts), because the edge depends on polls and not the other way round.
 */
const KEPT = new WeakMap<Buffer, string | undefined>();

/** Marks bytes as a body that will be written many times (a kept poll answer). Answers the bytes. */
export function bodyForRewrites(bytes: Buffer): Buffer {
  KEPT.set(bytes, undefined);
  return bytes;
}

/**
 * The ETag of a body marked by bodyForRewrites, made by `make` at its first write and kept;
 * undefined for any other body (its writer makes one as ever).
 */
export function keptBodyEtag(bytes: Buffer, make: (bytes: Buffer) => string | undefined): string | undefined {
  if (!KEPT.has(bytes)) return undefined;
  let etag = KEPT.get(bytes);
  if (etag === undefined) {
    etag = make(bytes);
    KEPT.set(bytes, etag);
  }
  return etag;
}
