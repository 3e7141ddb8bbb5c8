import { from, type Observable, of } from 'rxjs';
import { SerializedReply } from './serialized-reply';

/**
 * Large replies travel as ordered chunks. NATS refuses messages over its max_payload (1 MB by
 * default) and a full sync of a large account is several megabytes, so a reply whose JSON is
 * over MAX_MESSAGE_BYTES is sent as several messages of one request (Nest streams them) and
 * reassembled by the caller. A reply under it goes whole: chunks carry JSON text inside a JSON
 * string, which costs an escape on the way and a parse more on arrival. Chunks are cut by
 * characters; 128 Ki characters stay under 512 KiB even when every character takes four bytes.
 */
export const MAX_CHUNK_CHARS = 128 * 1024;
/** Whole-message bound: under the default max_payload with room for Nest's envelope and headers. */
export const MAX_MESSAGE_BYTES = 900 * 1024;
const MARK = 'doable.chunk.v1';

interface ReplyChunk {
  readonly mark: typeof MARK;
  readonly index: number;
  readonly count: number;
  readonly part: string;
}

function isChunk(value: unknown): value is ReplyChunk {
  return typeof value === 'object' && value !== null && (value as ReplyChunk).mark === MARK;
}

/** The messages to send for a reply: itself (with its JSON text) when small, its chunks when large. */
export function chunkReply(value: unknown, maxChars = MAX_CHUNK_CHARS, maxBytes = MAX_MESSAGE_BYTES): Observable<unknown> {
  const json = JSON.stringify(value);
  // Characters first: a reply that short cannot exceed the bound, whatever its bytes.
  if (json === undefined) return of(value);
  // Sent with the text just made, so the transport does not stringify the reply again.
  if (json.length * 4 <= maxBytes || Buffer.byteLength(json) <= maxBytes) return of(new SerializedReply(value, json));
  const count = Math.ceil(json.length / maxChars);
  const chunks: ReplyChunk[] = Array.from({ length: count }, (_, index) => ({ mark: MARK, index, count, part: json.slice(index * maxChars, (index + 1) * maxChars) }));
  return from(chunks);
}

/** The reply from what arrived: one plain value, or a complete set of chunks. */
export function assembleReply<T>(messages: readonly unknown[]): T {
  const [first] = messages;
  // A SerializedReply arrives only where nothing serialised it (a direct call, a unit test).
  if (messages.length === 1 && first instanceof SerializedReply) return first.value as T;
  if (messages.length === 1 && !isChunk(first)) return first as T;
  const chunks = messages.filter(isChunk).sort((a, b) => a.index - b.index);
  const complete = chunks.length === messages.length && chunks.length > 0 && chunks.length === chunks[0].count && chunks.every((chunk, index) => chunk.index === index);
  if (!complete) throw new Error(`incomplete chunked reply (${chunks.length} of ${chunks[0]?.count ?? '?'} chunks, ${messages.length} messages)`);
  return JSON.parse(chunks.map((chunk) => chunk.part).join('')) as T;
}
