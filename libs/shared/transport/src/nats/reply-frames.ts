import { BodyFramedReply, packetHead, SerializedReply, stringifyReplyPacket } from '../wire/serialized-reply';

/**
 * Reply messages on NATS. A plain reply is Nest's JSON packet. A BodyFramedReply is framed:
 * `#`, the JSON packet with the reply minus its body, a newline, then the body's raw UTF-8
 * bytes. A JSON packet starts with `{` and never holds a raw newline, so neither the mark nor
 * the end of the head can be mistaken.
 */
const FRAME_MARK = 0x23; // '#'
const HEAD_END = 0x0a; // '\n'
const CLOSE = Buffer.from('}');

/** What the NATS server publishes for a reply packet. */
export function encodeReplyPacket(packet: object): string | Buffer {
  const { response, ...rest } = packet as { response?: unknown };
  if (response instanceof BodyFramedReply) {
    return Buffer.concat([Buffer.from(`#${packetHead(rest)}${response.head}}\n`), response.body]);
  }
  if (response instanceof SerializedReply && response.bytes) return Buffer.concat([Buffer.from(packetHead(rest)), response.bytes, CLOSE]);
  return stringifyReplyPacket(packet);
}

/**
 * The reply packet in a message: a framed one put back together, else its JSON. A framed body
 * stays the bytes it came as (a view of the message, no copy): ServiceClient decodes it to text
 * for the callers that read text, and leaves it to those that only pass it on (body-bytes.ts).
 */
export function decodeReplyMessage(data: Uint8Array, json: () => unknown): unknown {
  if (data.length === 0 || data[0] !== FRAME_MARK) return json();
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const end = bytes.indexOf(HEAD_END);
  const packet = end > 0 ? (JSON.parse(bytes.toString('utf8', 1, end)) as { response?: unknown }) : undefined;
  if (typeof packet?.response !== 'object' || packet.response === null) throw new Error('malformed framed reply');
  (packet.response as { body?: Buffer }).body = bytes.subarray(end + 1);
  return packet;
}
