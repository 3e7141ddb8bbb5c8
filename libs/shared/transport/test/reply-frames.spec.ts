import { lastValueFrom, toArray } from 'rxjs';
import { assembleReply, chunkReply } from '../src/rpc/reply-chunks';
import { BodyFramedReply, SerializedReply } from '../src/wire/serialized-reply';
import type { MsgHdrs } from '@nats-io/transport-node';
import { decodeReplyMessage, encodeReplyMessage } from '../src/nats/reply-frames';
import { HEADERS, REPLY_FRAMES, replyFramesLevel } from '../src/transport-options';
import { withTextBody } from '../src/wire/body-bytes';

const bytesOf = (data: string | Buffer): Uint8Array => (typeof data === 'string' ? Buffer.from(data) : data);
/** The payload of a reply sent without headers (the forms every caller reads). */
const encodeReplyPacket = (packet: object): string | Buffer => {
  const { data, headers } = encodeReplyMessage(packet);
  expect(headers).toBeUndefined();
  return data;
};
const decode = (data: string | Buffer, headers?: MsgHdrs) => {
  const bytes = bytesOf(data);
  return decodeReplyMessage(bytes, () => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown, headers);
};

describe('NATS reply frames', () => {
  it('sends a serialised reply as its packet, from its text or its bytes', () => {
    const value = { a: 'é' };
    const packet = { id: '1', isDisposed: true };
    expect(decode(encodeReplyPacket({ ...packet, response: new SerializedReply(value, '{"a":"é"}') }))).toEqual({ ...packet, response: value });
    expect(decode(encodeReplyPacket({ ...packet, response: new SerializedReply(value, '{"a":"é"}', Buffer.from('{"a":"é"}')) }))).toEqual({ ...packet, response: value });
  });

  it('sends a long body after the packet as raw bytes, and puts it back as those bytes', () => {
    const value = { status: 200, body: '[{"text":"\\"ü\\"\\n🚀"}]\n', contentType: 'application/json' };
    const data = encodeReplyPacket({ id: '7', isDisposed: true, response: new BodyFramedReply(value, '{"status":200,"contentType":"application/json"}', Buffer.from(value.body)) });
    expect(Buffer.isBuffer(data) && data.includes(Buffer.from(value.body))).toBe(true);
    const decoded = decode(data) as { response: { body: unknown } };
    expect(decoded).toEqual({ id: '7', isDisposed: true, response: { ...value, body: Buffer.from(value.body) } });
    // A view of the message, not a copy.
    expect((decoded.response.body as Buffer).buffer).toBe((data as Buffer).buffer);
    expect(withTextBody(decoded.response)).toEqual(value);
  });

  it('sends a body held as bytes as those bytes', () => {
    const body = Buffer.from('{"text":"é🚀"}');
    const data = encodeReplyPacket({ id: '8', isDisposed: true, response: new BodyFramedReply({ body }, '{"status":200}', body) });
    expect(decode(data)).toEqual({ id: '8', isDisposed: true, response: { status: 200, body } });
  });

  it('sends the chunks of a body too large for one message as raw bytes, which reassemble to the same text', async () => {
    // 'é' and '🚀' straddle the byte cuts unless the cuts avoid them.
    const value = { status: 200, body: `[${Array.from({ length: 3_000 }, (_, index) => `"é${index}🚀\\\""`).join(',')}]`, contentType: 'application/json' };
    const chunks = await lastValueFrom(chunkReply(value, { frameBodies: true, frameChunks: true, maxBytes: 8_192 }).pipe(toArray()));
    expect(chunks.length).toBeGreaterThan(2);
    const arrived = chunks.map((response) => {
      const data = encodeReplyPacket({ id: '9', isDisposed: false, response });
      expect(data.length).toBeLessThanOrEqual(8_192);
      expect(Buffer.isBuffer(data) && data[0]).toBe(0x23);
      return (decode(data) as { id: string; response: unknown }).response;
    });
    const assembled = assembleReply<{ body: unknown }>(arrived);
    expect(Buffer.isBuffer(assembled.body)).toBe(true);
    expect(withTextBody(assembled)).toEqual(value);
  });

  it('reads plain packets and errors as JSON, and refuses a broken frame', () => {
    expect(decode(encodeReplyPacket({ id: '2', err: { code: 'X' }, isDisposed: true }))).toEqual({ id: '2', err: { code: 'X' }, isDisposed: true });
    expect(() => decode('#{"id":"3","response":1}\nbody')).toThrow('malformed framed reply');
    expect(() => decode('#no head end')).toThrow('malformed framed reply');
  });

  it('sends a framed reply to a caller reading heads in headers as its body alone, the packet in a header', async () => {
    const value = { status: 200, body: `[${Array.from({ length: 3_000 }, (_, index) => `"é${index}🚀\\\""`).join(',')}]`, contentType: 'application/json; charset=utf-8', filename: 'Überblick.json' };
    const chunks = await lastValueFrom(chunkReply(value, { frameBodies: true, frameChunks: true, headsInHeaders: true, maxBytes: 8_192 }).pipe(toArray()));
    expect(chunks.length).toBeGreaterThan(2);
    const arrived = chunks.map((response) => {
      const { data, headers } = encodeReplyMessage({ id: '10', isDisposed: false, response });
      // The payload is the body's slice itself, not a copy of it after a head.
      expect(data).toBe((response as BodyFramedReply).body);
      expect(headers?.get(HEADERS.replyHead)).toContain('"mark":"doable.chunk.v1"');
      return (decode(data, headers) as { id: string; response: unknown }).response;
    });
    expect(withTextBody(assembleReply<{ body: unknown }>(arrived))).toEqual(value);

    // A whole one, and an empty body, which goes in the payload form (an empty payload means "no responders").
    const [whole] = await lastValueFrom(chunkReply(value, { frameBodies: true, headsInHeaders: true }).pipe(toArray()));
    const sent = encodeReplyMessage({ id: '11', isDisposed: true, response: whole });
    expect(withTextBody((decode(sent.data, sent.headers) as { response: unknown }).response)).toEqual(value);
    const empty = encodeReplyMessage({ id: '12', isDisposed: true, response: new BodyFramedReply({ body: Buffer.alloc(0) }, '{"status":200}', Buffer.alloc(0), true) });
    expect(empty.headers).toBeUndefined();
    expect(decode(empty.data)).toEqual({ id: '12', isDisposed: true, response: { status: 200, body: Buffer.alloc(0) } });
  });

  it('refuses a head in a header that is not a reply packet', () => {
    const headers = { get: () => '{"id":"13"}' } as unknown as MsgHdrs;
    expect(() => decode('body', headers)).toThrow('malformed framed reply');
  });

  it('reads the level a caller names: none, a known one, or one of a later release as the highest known', () => {
    expect([undefined, '', 'x', '0', '-1', '1.5'].map(replyFramesLevel)).toEqual([0, 0, 0, 0, 0, 0]);
    expect([REPLY_FRAMES.bodies, REPLY_FRAMES.bodyChunks, REPLY_FRAMES.headsInHeaders, '7'].map(replyFramesLevel)).toEqual([1, 2, 3, 3]);
  });
});
