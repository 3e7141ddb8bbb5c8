import { lastValueFrom, toArray } from 'rxjs';
import { assembleReply, chunkReply, FRAME_BODY_FROM_CHARS } from './reply-chunks';
import { BodyFramedReply, SerializedReply, stringifyReplyPacket } from '../wire/serialized-reply';

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

  describe('a body held as bytes (rest passing sync\'s answer on)', () => {
    const text = JSON.stringify([{ content: 'é "task" 🚀\n' }]);
    const reply = { status: 200, body: Buffer.from(text), contentType: 'application/json; charset=utf-8' };

    it('goes framed as those very bytes to a caller that reads frames, however short', async () => {
      const [framed] = await lastValueFrom(chunkReply(reply, { frameBodies: true }).pipe(toArray()));
      expect(framed).toBeInstanceOf(BodyFramedReply);
      expect((framed as BodyFramedReply).body).toBe(reply.body);
      expect((framed as BodyFramedReply).head).toBe('{"status":200,"contentType":"application/json; charset=utf-8"}');
      expect((framed as BodyFramedReply).value).toEqual({ ...reply, body: text });
    });

    it('goes as its text, in the JSON a text body makes, to a caller that does not (an older gateway, the in-process hop)', async () => {
      const textReply = { ...reply, body: text };
      await expect(lastValueFrom(chunkReply(reply).pipe(toArray()))).resolves.toEqual([new SerializedReply(textReply, JSON.stringify(textReply))]);
      const large = { ...reply, body: Buffer.from('é'.repeat(5_000)) };
      await expect(roundTrip(large, 1_000)).resolves.toEqual({ ...large, body: 'é'.repeat(5_000) });
    });

    it('goes as framed chunks when too large for one message, which reassemble to the same bytes', async () => {
      const large = { ...reply, body: Buffer.from(text.repeat(400)) };
      const messages = await lastValueFrom(chunkReply(large, { frameBodies: true, frameChunks: true, maxBytes: 4_096 }).pipe(toArray()));
      expect(messages.length).toBeGreaterThan(3);
      expect(messages.every((message) => message instanceof BodyFramedReply)).toBe(true);
      // What the NATS client hands over: each chunk's head as JSON and its slice as bytes.
      const arrived = (messages as BodyFramedReply[]).map((chunk) => ({ ...(JSON.parse(chunk.head) as object), body: chunk.body }));
      const assembled = assembleReply<{ body: Buffer }>(arrived);
      expect(assembled.body.equals(large.body)).toBe(true);
      expect(assembled).toMatchObject({ status: 200, contentType: reply.contentType });
    });
  });

  describe('a body too large for one message', () => {
    // Multi-byte characters everywhere, so that byte cuts fall inside characters unless avoided.
    const body = JSON.stringify({ items: Array.from({ length: 400 }, (_, index) => ({ id: String(index), content: `é "task" ${index} 🚀\n€` })) });
    const reply = { status: 200, body, contentType: 'application/json; charset=utf-8', headers: { 'x-a': 'b' } };
    const chunked = async (options: Parameters<typeof chunkReply>[1]) => lastValueFrom(chunkReply(reply, options).pipe(toArray()));

    it('goes as framed chunks of raw bytes to a caller that reads them, each within the message bound', async () => {
      const messages = await chunked({ frameBodies: true, frameChunks: true, maxBytes: 4_096 });
      expect(messages.length).toBeGreaterThan(5);
      expect(messages.every((message) => message instanceof BodyFramedReply)).toBe(true);
      const framed = messages as BodyFramedReply[];
      expect(framed.every((chunk) => chunk.head.length + chunk.body.length + 512 <= 4_096)).toBe(true);
      // The slices are the body's bytes in order, and each decodes on its own.
      expect(Buffer.concat(framed.map((chunk) => chunk.body)).toString()).toBe(body);
      expect(framed.map((chunk) => chunk.body.toString()).join('')).toBe(body);
      expect(JSON.parse(framed[0].head)).toMatchObject({ index: 0, count: framed.length, reply: { status: 200, headers: { 'x-a': 'b' } } });
      expect(JSON.parse(framed[1].head)).not.toHaveProperty('reply');
    });

    it('reassembles to the same reply, with the body as the same text', async () => {
      const messages = await chunked({ frameBodies: true, frameChunks: true, maxBytes: 4_096 });
      expect(assembleReply(messages)).toEqual(reply);
      expect(assembleReply([...messages].reverse())).toEqual(reply);
      expect(() => assembleReply(messages.slice(1))).toThrow('incomplete chunked reply');
    });

    it('goes as JSON chunks to a caller that reads framed bodies only, or none (older callers)', async () => {
      for (const options of [{ frameBodies: true }, {}]) {
        const messages = await chunked({ ...options, maxChars: 4_096, maxBytes: 4_096 });
        expect(messages.some((message) => message instanceof BodyFramedReply)).toBe(false);
        expect(assembleReply(messages)).toEqual(reply);
      }
    });

    it('goes as JSON chunks when the rest of the reply leaves a chunk no room', async () => {
      const crowded = { ...reply, headers: { 'x-a': 'b'.repeat(2_000) } };
      const messages = await lastValueFrom(chunkReply(crowded, { frameBodies: true, frameChunks: true, maxChars: 4_096, maxBytes: 4_096 }).pipe(toArray()));
      expect(messages.some((message) => message instanceof BodyFramedReply)).toBe(false);
      expect(assembleReply(messages)).toEqual(crowded);
    });
  });

  it('refuses an incomplete or shuffled-and-missing set of chunks', async () => {
    const messages = await lastValueFrom(chunkReply({ big: 'y'.repeat(500) }, { maxChars: 100, maxBytes: 100 }).pipe(toArray()));
    expect(() => assembleReply(messages.slice(1))).toThrow('incomplete chunked reply');
    expect(assembleReply([...messages].reverse())).toEqual({ big: 'y'.repeat(500) });
  });
});
