/**
 * Replies as the chunking interceptor hands them to the transports, already serialised. It has
 * to serialise every reply to know whether it fits one message; the transports reuse that work
 * instead of stringifying the whole reply a second time (for a list of a thousand tasks that
 * second pass was a tenth of the sync service's CPU).
 *
 * Its own folder, below rpc/ and the transports: rpc/ makes these and nats/ and in-process/ write
 * them, so neither transport has to reach up into rpc/.
 */

/** A reply with its JSON text (and its UTF-8 bytes, when measuring it needed them). */
export class SerializedReply {
  constructor(
    readonly value: unknown,
    readonly json: string,
    readonly bytes?: Buffer,
  ) {}
}

/**
 * The NATS header holding a framed reply's packet (without its body) for a caller that reads
 * REPLY_FRAMES.headsInHeaders (transport-options.ts names it HEADERS.replyHead). Here, below the
 * transports, so nats/ reads it without reaching up to the package's root.
 */
export const REPLY_HEAD_HEADER = 'x-doable-reply-head';

/**
 * A reply object whose `body` is long text (an edge reply's JSON answer) or bytes (body-bytes.ts),
 * or one slice of such a body too large for one message (see rpc/reply-chunks.ts): over NATS, the
 * body travels as raw bytes after the JSON of the rest of the reply (see nats/reply-frames.ts), so
 * it is neither escaped into a JSON string by the service nor unescaped by the caller.
 */
export class BodyFramedReply {
  constructor(
    /** The reply as given; absent for a chunk, whose slice is decoded only if someone asks. */
    private readonly given: { readonly body: unknown } | undefined,
    /** JSON of the reply without its body. */
    readonly head: string,
    /** The body, UTF-8. */
    readonly body: Buffer,
    /** Whether its caller reads the packet from the message's headers (REPLY_FRAMES.headsInHeaders). */
    readonly headInHeaders = false,
  ) {}

  /**
   * The reply as an object, as the caller reads it. Only what serialises nothing asks for it (the
   * in-process transport, a direct call, a unit test), so a chunk's text is decoded only there.
   */
  get value(): { readonly body: string } {
    if (this.given && typeof this.given.body === 'string') return this.given as { readonly body: string };
    return { ...(JSON.parse(this.head) as object), body: this.body.toString('utf8') };
  }
}

/**
 * A reply packet (Nest's `{id, response, isDisposed, err}`) as JSON text: JSON.stringify,
 * except that a SerializedReply response goes in as the text it already is.
 */
export function stringifyReplyPacket(packet: object): string {
  const { response, ...rest } = packet as { response?: unknown };
  if (response instanceof BodyFramedReply) return JSON.stringify({ ...rest, response: response.value });
  if (!(response instanceof SerializedReply)) return JSON.stringify(packet);
  return `${packetHead(rest)}${response.json}}`;
}

/** The JSON of a packet's other keys, open for `"response":` and its value. */
export function packetHead(rest: object): string {
  const head = JSON.stringify(rest);
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}"response":`;
}
