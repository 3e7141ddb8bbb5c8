import { lastValueFrom, toArray } from 'rxjs';
import { assembleReply, chunkReply, FRAME_BODY_FROM_CHARS } from './reply-chunks';
import { BodyFramedReply, SerializedReply, stringifyReplyPacket } from './serialized-reply';

describe('reply chunks', () => {
  const roundTrip = async (value: unknown, maxChars: number) => assembleReply(await lastValueFrom(chunkReply(value, { maxChars, maxBytes: maxChars }).pipe(toArray())));

  it('sends a small reply as itself, with the JSON text the transport sends as is', async () => {
    await expect(lastValueFrom(chunkReply({ a: 1 }, { maxChars: 100 }).pipe(toArray()))).resolves.toEqual([new SerializedReply({ a: 1 }, '{"a":1}')]);
  });

  it('splices the JSON text into the reply envelope as it is', () => {
    const packet = { response: new SerializedReply({ a: 'é' }, '{"a":"é"}'), isDisposed: true, id: '7' };
    expect(JSON.parse(stringifyReplyPacket(packet))).toEqual({ response: { a: 'é' }, isDisposed: true, id: '7' });
    expect(stringifyReplyPacket({ response: new SerializedReply([1], '[1]') })).toBe('{"response":[1]}');
    expect(stringifyReplyPacket({ err: 'x', id: '7' })).toBe(JSON.stringify({ err: 'x', id: '7' }));
  });

  it('sends a reply whole while its bytes fit one message, however many chunks its characters would make', async () => {
    const value = { text: 'é'.repeat(300) };
    await expect(lastValueFrom(chunkReply(value, { maxChars: 64, maxBytes: 1_000 }).pipe(toArray()))).resolves.toEqual([new SerializedReply(value, JSON.stringify(value))]);
    // 300 two-byte characters are over 500 bytes: cut.
    expect((await lastValueFrom(chunkReply(value, { maxChars: 64, maxBytes: 500 }).pipe(toArray()))).length).toBeGreaterThan(1);
  });

  it.each([
    ['an object', { items: Array.from({ length: 200 }, (_, index) => ({ id: String(index), content: `é task ${index} 🚀` })) }],
    ['a long string', 'x'.repeat(1_000)],
    ['an array', Array.from({ length: 50 }, (_, index) => index)],
  ])('reassembles %s cut into chunks', async (_name, value) => {
    const messages = await lastValueFrom(chunkReply(value, { maxChars: 64, maxBytes: 64 }).pipe(toArray()));
    expect(messages.length).toBeGreaterThan(1);
    await expect(roundTrip(value, 64)).resolves.toEqual(value);
  });

  it('frames a long text body only for a caller that reads frames (an older caller gets plain JSON)', async () => {
    const reply = { status: 200, body: 'x'.repeat(FRAME_BODY_FROM_CHARS), contentType: 'application/json' };
    await expect(lastValueFrom(chunkReply(reply).pipe(toArray()))).resolves.toEqual([new SerializedReply(reply, JSON.stringify(reply))]);
    const [framed] = await lastValueFrom(chunkReply(reply, { frameBodies: true }).pipe(toArray()));
    expect(framed).toBeInstanceOf(BodyFramedReply);
  });

  it('frames a long text body, and leaves short ones and bodies too large for one message alone', async () => {
    const reply = { status: 200, body: 'é'.repeat(FRAME_BODY_FROM_CHARS), contentType: 'application/json' };
    const [framed] = await lastValueFrom(chunkReply(reply, { frameBodies: true }).pipe(toArray()));
    expect(framed).toBeInstanceOf(BodyFramedReply);
    expect((framed as BodyFramedReply).head).toBe('{"status":200,"contentType":"application/json"}');
    expect((framed as BodyFramedReply).body.toString()).toBe(reply.body);
    const [short] = await lastValueFrom(chunkReply({ status: 200, body: 'short' }, { frameBodies: true }).pipe(toArray()));
    expect(short).toBeInstanceOf(SerializedReply);
    expect((await lastValueFrom(chunkReply(reply, { frameBodies: true, maxChars: 4_096, maxBytes: 20_000 }).pipe(toArray()))).length).toBeGreaterThan(1);
    await expect(roundTrip(reply, 4_096)).resolves.toEqual(reply);
  });

  it('refuses an incomplete or shuffled-and-missing set of chunks', async () => {
    const messages = await lastValueFrom(chunkReply({ big: 'y'.repeat(500) }, { maxChars: 100, maxBytes: 100 }).pipe(toArray()));
    expect(() => assembleReply(messages.slice(1))).toThrow('incomplete chunked reply');
    expect(assembleReply([...messages].reverse())).toEqual({ big: 'y'.repeat(500) });
  });
});
