import { from, type Observable, of } from 'rxjs';
import { BodyFramedReply, SerializedReply } from './serialized-reply';

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

/**
 * Text bodies at least this long travel framed, as raw bytes (BodyFramedReply); shorter ones are
 * not worth a second message format.
 */
export const FRAME_BODY_FROM_CHARS = 16 * 1024;

export interface ChunkOptions {
  /** Whether the caller reads framed replies; older callers get plain JSON. */
  readonly frameBodies?: boolean;
  readonly maxChars?: number;
  readonly maxBytes?: number;
}

/** The messages to send for a reply: itself (serialised) when it fits one message, its chunks when not. */
export function chunkReply(value: unknown, options: ChunkOptions = {}): Observable<unknown> {
  const { frameBodies = false, maxChars = MAX_CHUNK_CHARS, maxBytes = MAX_MESSAGE_BYTES } = options;
  const framed = frameBodies ? framedBody(value, maxBytes) : undefined;
  if (framed) return of(framed);
  const json = JSON.stringify(value);
  if (json === undefined) return of(value);
  // A UTF-16 code unit is at most three UTF-8 bytes: a reply that short fits, whatever its text.
  if (json.length * 3 <= maxBytes) return of(new SerializedReply(value, json));
  const bytes = Buffer.from(json);
  if (bytes.length <= maxBytes) return of(new SerializedReply(value, json, bytes));
  const count = Math.ceil(json.length / maxChars);
  const chunks: ReplyChunk[] = Array.from({ length: count }, (_, index) => ({ mark: MARK, index, count, part: json.slice(index * maxChars, (index + 1) * maxChars) }));
  return from(chunks);
}

/** A plain reply object with a long text `body` that fits one message, framed; else undefined. */
function framedBody(value: unknown, maxBytes: number): BodyFramedReply | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const { body, ...rest } = value as { body?: unknown };
  if (typeof body !== 'string' || body.length < FRAME_BODY_FROM_CHARS) return undefined;
  const head = JSON.stringify(rest);
  const bytes = Buffer.from(body);
  // Too large for one message: chunked like any other reply.
  if (head.length * 3 + bytes.length > maxBytes) return undefined;
  return new BodyFramedReply(value as { body: string }, head, bytes);
}

/** The reply from what arrived: one plain value, or a complete set of chunks. */
export function assembleReply<T>(messages: readonly unknown[]): T {
  const [first] = messages;
  // These arrive only where nothing serialised them (a direct call, a unit test).
  if (messages.length === 1 && (first instanceof SerializedReply || first instanceof BodyFramedReply)) return first.value as T;
  if (messages.length === 1 && !isChunk(first)) return first as T;
  const chunks = messages.filter(isChunk).sort((a, b) => a.index - b.index);
  const complete = chunks.length === messages.length && chunks.length > 0 && chunks.length === chunks[0].count && chunks.every((chunk, index) => chunk.index === index);
  if (!complete) throw new Error(`incomplete chunked reply (${chunks.length} of ${chunks[0]?.count ?? '?'} chunks, ${messages.length} messages)`);
  return JSON.parse(chunks.map((chunk) => chunk.part).join('')) as T;
}
