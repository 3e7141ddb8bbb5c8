import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { BodyFramedReply, packetHead, REPLY_HEAD_HEADER, SerializedReply, stringifyReplyPacket } from '../wire/serialized-reply';

/**
 * Reply messages on NATS. A plain reply is Nest's JSON packet. A BodyFramedReply is framed, one
 * of two ways, as far as its caller reads (transport-options REPLY_FRAMES):
 * - in the payload: `#`, the JSON packet with the reply minus its body, a newline, then the
 *   body's raw UTF-8 bytes. A JSON packet starts with `{` and never holds a raw newline, so
 *   neither the mark nor the end of the head can be mistaken;
 * - with the head in the message's headers (REPLY_HEAD_HEADER) and the body as the whole
 *   payload. nats.js queues headers and payload as separate buffers, so the body (a slice of a
 *   full sync's answer) leaves as it is: the payload form copied every slice after its head,
 *   3 MB per full sync into fresh memory (issue #48, bench S3).
 */
const FRAME_MARK = 0x23; // '#'
const HEAD_END = 0x0a; // '\n'
const CLOSE = Buffer.from('}');

/** What the NATS server publishes for a reply packet. */
export function encodeReplyMessage(packet: object): { data: string | Buffer; headers?: MsgHdrs } {
  const { response, ...rest } = packet as { response?: unknown };
  if (response instanceof BodyFramedReply) {
    const head = `${packetHead(rest)}${response.head}}`;
    // An empty payload reads as "no responders" to Nest's client: an empty body goes in the payload form.
    if (response.headInHeaders && response.body.length > 0) {
      const headers = natsHeaders();
      headers.set(REPLY_HEAD_HEADER, head);
      return { data: response.body, headers };
    }
    return { data: Buffer.concat([Buffer.from(`#${head}\n`), response.body]) };
  }
  if (response instanceof SerializedReply && response.bytes) return { data: Buffer.concat([Buffer.from(packetHead(rest)), response.bytes, CLOSE]) };
  return { data: stringifyReplyPacket(packet) };
}

/**
 * The reply packet in a message: a framed one put back together, else its JSON. A framed body
 * stays the bytes it came as (a view of the message, no copy): ServiceClient decodes it to text
 * for the callers that read text, and leaves it to those that only pass it on (body-bytes.ts).
 */
export function decodeReplyMessage(data: Uint8Array, json: () => unknown, headers?: Pick<MsgHdrs, 'get'>): unknown {
  const head = headers?.get(REPLY_HEAD_HEADER);
  if (head) return withBody(JSON.parse(head) as { response?: unknown }, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  if (data.length === 0 || data[0] !== FRAME_MARK) return json();
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const end = bytes.indexOf(HEAD_END);
  const packet = end > 0 ? (JSON.parse(bytes.toString('utf8', 1, end)) as { response?: unknown }) : undefined;
  return withBody(packet, bytes.subarray(end + 1));
}

function withBody(packet: { response?: unknown } | undefined, body: Buffer): unknown {
  if (typeof packet?.response !== 'object' || packet.response === null) throw new Error('malformed framed reply');
  (packet.response as { body?: Buffer }).body = body;
  return packet;
}
