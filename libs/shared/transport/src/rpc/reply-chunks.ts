import { from, type Observable, of } from 'rxjs';
import { bodyBuffer, isBodyBytes, withTextBody } from '../wire/body-bytes';
import { BodyFramedReply, SerializedReply } from '../wire/serialized-reply';
import { utf8Slices } from './utf8-slices';

/**
 * Large replies travel as ordered chunks. NATS refuses messages over its max_payload (1 MB by
 * default) and a full sync of a large account is several megabytes, so a reply whose JSON is
 * over MAX_MESSAGE_BYTES is sent as several messages of one request (Nest streams them) and
 * reassembled by the caller. A reply under it goes whole.
 *
 * Two kinds of chunk. A reply with a long text body (an edge reply: the answer is JSON text
 * already), for a caller that reads them, goes as framed body chunks: each a slice of the body's
 * UTF-8 bytes, sent raw (see nats/reply-frames.ts), the first also carrying the rest of the
 * reply; the caller joins the slices' text and never parses it. Any other reply goes as JSON
 * chunks: its JSON text cut by characters, each part a JSON string, which costs an escape on the
 * way and a parse more on arrival; 128 Ki characters stay under 512 KiB even when every
 * character takes four bytes.
 *
 * A body held as bytes (wire/body-bytes.ts: rest passing on sync's answer) goes framed as those
 * bytes, whatever its length, to a caller that reads frames; as its text to any other.
 */
export const MAX_CHUNK_CHARS = 128 * 1024;
/** Whole-message bound: under the default max_payload with room for Nest's envelope and headers. */
export const MAX_MESSAGE_BYTES = 900 * 1024;
/** Room left in a framed chunk for Nest's packet around it (`{"id":...,"isDisposed":false,"response":}`). */
const PACKET_ROOM_BYTES = 512;
const MARK = 'doable.chunk.v1';

interface ReplyChunk {
  readonly mark: typeof MARK;
  readonly index: number;
  readonly count: number;
  /** A JSON chunk: this part of the reply's JSON text. */
  readonly part?: string;
  /** A body chunk: this slice of the body, as text (or its bytes, as the NATS client reads it)... */
  readonly body?: string | Uint8Array;
  /** ...and on the first one, the reply without its body. */
  readonly reply?: object;
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
  /** Whether it also reads framed body chunks; older callers get JSON chunks of a body too large for one message. */
  readonly frameChunks?: boolean;
  /** Whether it also reads a framed reply's packet from the message's headers (REPLY_FRAMES.headsInHeaders). */
  readonly headsInHeaders?: boolean;
  readonly maxChars?: number;
  readonly maxBytes?: number;
}

/** The messages to send for a reply: itself (serialised) when it fits one message, its chunks when not. */
export function chunkReply(value: unknown, options: ChunkOptions = {}): Observable<unknown> {
  const { frameBodies = false, frameChunks = false, headsInHeaders = false, maxChars = MAX_CHUNK_CHARS, maxBytes = MAX_MESSAGE_BYTES } = options;
  const framed = frameBodies ? framedBody(value, maxBytes, frameChunks, headsInHeaders) : undefined;
  if (framed) return from(framed);
  // Not framed: a body held as bytes goes as its text, inside the JSON.
  const plain = withTextBody(value);
  const json = JSON.stringify(plain);
  if (json === undefined) return of(plain);
  // A UTF-16 code unit is at most three UTF-8 bytes: a reply that short fits, whatever its text.
  if (json.length * 3 <= maxBytes) return of(new SerializedReply(plain, json));
  const bytes = Buffer.from(json);
  if (bytes.length <= maxBytes) return of(new SerializedReply(plain, json, bytes));
  const count = Math.ceil(json.length / maxChars);
  const chunks: ReplyChunk[] = Array.from({ length: count }, (_, index) => ({ mark: MARK, index, count, part: json.slice(index * maxChars, (index + 1) * maxChars) }));
  return from(chunks);
}

/**
 * A plain reply object with a long text `body`, or a body held as bytes, framed: whole when it
 * fits one message, else (when the caller reads them) as body chunks; undefined when it is not
 * such a reply.
 */
function framedBody(value: unknown, maxBytes: number, frameChunks: boolean, headsInHeaders: boolean): BodyFramedReply[] | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const { body, ...rest } = value as { body?: unknown };
  const bytes = isBodyBytes(body) ? bodyBuffer(body) : typeof body === 'string' && body.length >= FRAME_BODY_FROM_CHARS ? Buffer.from(body) : undefined;
  if (bytes === undefined) return undefined;
  const head = JSON.stringify(rest);
  if (head.length * 3 + bytes.length <= maxBytes) return [new BodyFramedReply(value as { body: unknown }, head, bytes, headsInHeaders)];
  return frameChunks ? bodyChunks(rest, bytes, maxBytes, headsInHeaders) : undefined;
}

/** A body too large for one message as framed chunks of raw UTF-8 slices; undefined if the reply's other keys leave no room. */
function bodyChunks(rest: object, bytes: Buffer, maxBytes: number, headsInHeaders: boolean): BodyFramedReply[] | undefined {
  // The first chunk's head is the longest (it carries the reply); a count of the body's length bounds every index and count.
  const longestHead = JSON.stringify({ mark: MARK, index: bytes.length, count: bytes.length, reply: rest });
  const sliceBytes = maxBytes - longestHead.length * 3 - PACKET_ROOM_BYTES;
  if (sliceBytes < 4) return undefined;
  const slices = utf8Slices(bytes, sliceBytes);
  const count = slices.length;
  return slices.map((slice, index) => new BodyFramedReply(undefined, JSON.stringify({ mark: MARK, index, count, ...(index === 0 ? { reply: rest } : {}) }), slice, headsInHeaders));
}

/** The reply from what arrived: one plain value, or a complete set of chunks. */
export function assembleReply<T>(messages: readonly unknown[]): T {
  // These arrive only where nothing serialised them (a direct call, a unit test).
  const values = messages.map((message) => (message instanceof SerializedReply || message instanceof BodyFramedReply ? message.value : message));
  const [first] = values;
  if (values.length === 1 && !isChunk(first)) return first as T;
  const chunks = values.filter(isChunk).sort((a, b) => a.index - b.index);
  const complete = chunks.length === values.length && chunks.length > 0 && chunks.length === chunks[0].count && chunks.every((chunk, index) => chunk.index === index);
  if (!complete) throw new Error(`incomplete chunked reply (${chunks.length} of ${chunks[0]?.count ?? '?'} chunks, ${values.length} messages)`);
  if (chunks.every((chunk) => typeof chunk.part === 'string')) return JSON.parse(chunks.map((chunk) => chunk.part).join('')) as T;
  if (typeof chunks[0].reply === 'object') {
    // The answer as it was sent, never parsed: its bytes joined as the NATS client read them, or its text.
    const slices = chunks.map((chunk) => chunk.body);
    if (slices.every(isBodyBytes)) return { ...chunks[0].reply, body: Buffer.concat(slices) } as T;
    if (slices.every((slice) => typeof slice === 'string')) return { ...chunks[0].reply, body: slices.join('') } as T;
  }
  throw new Error('malformed chunked reply');
}
