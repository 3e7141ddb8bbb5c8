/**
 * A JSON array's text held as its elements' texts, each written by PostgreSQL (json-text.sql.ts)
 * and read one row each, in the order read. It is joined only where it is written out: the sync
 * answer's writer (answerBytes) puts each element straight into the answer's bytes, so the
 * megabytes of a full sync are not copied into an array's string, then the answer's, then its
 * UTF-8 bytes.
 *
 * Why the rows are joined in JavaScript and not by string_agg in the statement (issue #48,
 * 2026-11-29): string_agg grows one text of the whole array (2.7 MB for bench S3's 5,000 tasks)
 * by doubling, and on machines where a fresh page costs a fault of several microseconds
 * (measured 4 µs on the bench's 2-core VMs: a fresh 4 MiB buffer touched in about 4 ms, a
 * reused one in 0.12) that text, and the message PostgreSQL copies it into, cost more than the
 * rows themselves: 92-121 ms p50 for the aggregate against 42-50 ms for the same texts read as
 * 5,000 rows and joined in JavaScript, seen from the client.
 */
export class JsonArrayText {
  constructor(readonly elements: readonly string[]) {}

  /** The array's text. */
  toString(): string {
    return `[${this.elements.join(',')}]`;
  }

  /** The length of the array's UTF-8 bytes. */
  byteLength(): number {
    let length = 2 + Math.max(0, this.elements.length - 1);
    for (const element of this.elements) length += Buffer.byteLength(element);
    return length;
  }

  /** Writes the array's UTF-8 bytes into `bytes` from `at` (room for byteLength() there); answers where they end. */
  writeInto(bytes: Buffer, at: number): number {
    bytes[at++] = OPEN_BRACKET;
    this.elements.forEach((element, index) => {
      if (index > 0) bytes[at++] = COMMA;
      at += bytes.write(element, at);
    });
    bytes[at++] = CLOSE_BRACKET;
    return at;
  }

  /**
   * The array's UTF-8 bytes, each element written straight into them: no string of the whole
   * array first (a REST v2 list of 833 tasks is 580 KB), which would be joined, flattened and then
   * encoded again.
   */
  toBytes(): Buffer {
    const bytes = Buffer.allocUnsafe(this.byteLength());
    this.writeInto(bytes, 0);
    return bytes;
  }
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** The array of these texts; undefined when one is NULL (PostgreSQL could not write it as JavaScript would, so the caller writes the rows itself). */
export function jsonArrayText(texts: ReadonlyArray<string | null>): JsonArrayText | undefined {
  for (const text of texts) if (text === null) return undefined;
  return new JsonArrayText(texts as readonly string[]);
}
