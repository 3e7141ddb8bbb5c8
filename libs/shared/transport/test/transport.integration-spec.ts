import { type EventEnvelope, requestSubject } from '@doable/contracts-common';
import { DomainError, type ErrorCode } from '@doable/shared-errors';
import { createLogger, currentCorrelationId, LOGGER, withCorrelationId } from '@doable/shared-logging';
import { deleteEventStream, TEST_NATS_URL, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { Controller, type INestMicroservice, Module, UseFilters, UseInterceptors } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import { z } from 'zod';
import { type EventBus, oneByOne } from '../src/events/event-bus';
import { InProcessBroker } from '../src/in-process/in-process-broker';
import { CorrelationInterceptor } from '../src/rpc/correlation.interceptor';
import { ReplyChunkingInterceptor } from '../src/rpc/reply-chunking.interceptor';
import { Handles } from '../src/rpc/handles.decorator';
import { RpcErrorFilter } from '../src/rpc/rpc-error.filter';
import { ServiceClient } from '../src/rpc/service-client';
import { createClientProxy, createEventBus, createServerStrategy } from '../src/transport-factory';
import { HEADERS, REPLY_FRAMES, streamNameFor, type TransportOptions } from '../src/transport-options';

const echo = requestSubject<{ text: string }, { echoed: string; correlationId: string | null }>('test.echo.v1', z.object({ text: z.string() }));
const fail = requestSubject<{ code: string }, never>('test.fail.v1', z.object({ code: z.string() }));
const crash = requestSubject<Record<string, never>, never>('test.crash.v1', z.object({}));
const slow = requestSubject<{ ms: number }, { done: true }>('test.slow.v1', z.object({ ms: z.number() }));
const mutate = requestSubject<{ items: number[] }, { items: number[] }>('test.mutate.v1', z.object({ items: z.array(z.number()) }));
const big = requestSubject<{ size: number }, { rows: string[] }>('test.big.v1', z.object({ size: z.number() }));
const textBody = requestSubject<{ size: number }, { status: number; body: string; contentType: string }>('test.text-body.v1', z.object({ size: z.number() }));
const bytesBody = requestSubject<{ size: number }, { status: number; body: string; contentType: string }>('test.bytes-body.v1', z.object({ size: z.number() }));
const nobody = requestSubject<Record<string, never>, never>('test.nobody-serves.v1', z.object({}));

/** A text-body reply with this body: the same text, or the same bytes (compared as bytes: jest walks a Buffer element by element). */
function expectBody(reply: { body: unknown }, body: string | Buffer): void {
  const { body: actual, ...rest } = reply;
  expect(rest).toEqual({ status: 200, contentType: 'application/json' });
  if (typeof body === 'string') expect(actual).toBe(body);
  else expect(Buffer.isBuffer(actual) && actual.equals(body)).toBe(true);
}

/** A long JSON text with escapes and multi-byte characters. */
const textOf = (size: number) => JSON.stringify(Array.from({ length: size }, (_, index) => ({ id: String(index), text: `"ü"\n🚀 ${index}` })));

@Controller()
@UseFilters(RpcErrorFilter)
@UseInterceptors(CorrelationInterceptor, ReplyChunkingInterceptor)
class TestRpcController {
  @Handles(echo)
  echo(request: { text: string }) {
    return { echoed: request.text, correlationId: currentCorrelationId() ?? null };
  }

  @Handles(fail)
  fail(request: { code: string }): never {
    throw new DomainError(request.code as ErrorCode, 'refused on purpose', { reason: 'test' });
  }

  @Handles(crash)
  crash(): never {
    throw new Error('secret internals');
  }

  /** How many slow requests have been taken (a test waits for its own to be in hand). */
  static slowTaken = 0;

  @Handles(slow)
  async slow(request: { ms: number }) {
    TestRpcController.slowTaken++;
    await new Promise((resolve) => setTimeout(resolve, request.ms));
    return { done: true as const };
  }

  @Handles(big)
  big(request: { size: number }) {
    return { rows: Array.from({ length: request.size }, (_, index) => `row ${index} ${'ü'.repeat(20)}`) };
  }

  @Handles(textBody)
  textBody(request: { size: number }) {
    return { status: 200, body: textOf(request.size), contentType: 'application/json' };
  }

  /** A service passing on a body it holds as bytes (rest with sync's REST v2 answer). */
  @Handles(bytesBody)
  bytesBody(request: { size: number }) {
    return { status: 200, body: Buffer.from(textOf(request.size)), contentType: 'application/json' };
  }

  @Handles(mutate)
  mutate(request: { items: number[] }) {
    request.items.push(99);
    return request;
  }
}

@Module({ controllers: [TestRpcController], providers: [{ provide: LOGGER, useValue: createLogger('test', 'silent') }] })
class TestRpcModule {}

type Kind = TransportOptions['kind'];

function optionsFor(kind: Kind, prefix: string, broker: InProcessBroker): TransportOptions {
  return kind === 'nats'
    ? { kind: 'nats', url: TEST_NATS_URL, subjectPrefix: prefix, name: 'transport-test' }
    : { kind: 'in-process', broker, subjectPrefix: prefix, name: 'transport-test' };
}

describe.each<Kind>(['nats', 'in-process'])('transport contract over %s', (kind) => {
  const prefix = uniqueSubjectPrefix(`transport-${kind}`);
  const broker = new InProcessBroker();
  const options = optionsFor(kind, prefix, broker);
  let server: INestMicroservice;
  let client: ServiceClient;
  const proxy = createClientProxy(options);

  beforeAll(async () => {
    server = await NestFactory.createMicroservice(TestRpcModule, { strategy: createServerStrategy(options, 'test'), logger: false });
    await server.listen();
    // A bound for a loaded machine (300 requests at once at load 20 took over 2 s); the timeout test sets its own.
    client = new ServiceClient(proxy, options, 20_000);
  });

  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  it('answers a request with the typed reply', async () => {
    await expect(client.request(echo, { text: 'hello' })).resolves.toEqual({ echoed: 'hello', correlationId: expect.any(String) });
  });

  it('carries the caller correlation id in headers', async () => {
    const reply = await withCorrelationId('corr-123', () => client.request(echo, { text: 'x' }));
    expect(reply.correlationId).toBe('corr-123');
  });

  it('validates the payload where it is consumed', async () => {
    const error = await client.request(echo, { text: 42 } as unknown as { text: string }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('INVALID_ARGUMENT_VALUE');
  });

  it('brings a domain error across as its code and extra', async () => {
    const error = (await client.request(fail, { code: 'PROJECT_NOT_FOUND' }).catch((err: unknown) => err)) as DomainError;
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('PROJECT_NOT_FOUND');
    expect(error.message).toBe('refused on purpose');
    expect(error.extra).toEqual({ reason: 'test' });
  });

  it('turns an unexpected error into INTERNAL without its internals', async () => {
    const error = (await client.request(crash, {}).catch((err: unknown) => err)) as DomainError;
    expect(error.code).toBe('INTERNAL');
    expect(error.message).not.toContain('secret');
  });

  it('brings each of many concurrent replies to its own caller, slow and fast ones interleaved', async () => {
    // Over NATS the replies share one subscription (a token per request, nats/prefixed-nats.client.ts)
    // and the writes of one loop turn leave together (nats/coalesced-writes.ts).
    const texts = Array.from({ length: 300 }, (_, index) => `request ${index}`);
    const replies = await Promise.all([...texts.map((text) => client.request(echo, { text })), client.request(slow, { ms: 50 }), client.request(fail, { code: 'PROJECT_NOT_FOUND' }).catch((err: unknown) => (err as DomainError).code)]);
    expect(replies.slice(0, texts.length).map((reply) => (reply as { echoed: string }).echoed)).toEqual(texts);
    expect(replies.slice(texts.length)).toEqual([{ done: true }, 'PROJECT_NOT_FOUND']);
  });

  it('serialises payloads both ways (the handler cannot touch the caller objects)', async () => {
    const items = [1, 2];
    const reply = await client.request(mutate, { items });
    expect(reply.items).toEqual([1, 2, 99]);
    expect(items).toEqual([1, 2]);
  });

  it('carries a reply far larger than one broker message (NATS refuses over 1 MB)', async () => {
    const reply = await client.request(big, { size: 100_000 });
    expect(reply.rows).toHaveLength(100_000);
    expect(reply.rows[99_999]).toBe(`row 99999 ${'ü'.repeat(20)}`);
    expect(JSON.stringify(reply).length).toBeGreaterThan(3_000_000);
  });

  it.each([10, 2_000, 40_000])('carries a reply with a long text body as it was (%s rows: whole, framed, chunked)', async (size) => {
    const reply = await client.request(textBody, { size });
    expect(reply).toEqual({ status: 200, contentType: 'application/json', body: textOf(size) });
  });

  it.each([10, 2_000, 40_000])('gives a caller that asks for bytes a framed body as the bytes it came in, any other as its text (%s rows)', async (size) => {
    const reply = await client.request(textBody, { size }, { bodyAs: 'bytes' });
    // Over NATS a body of 2,000 rows and more travels raw (framed, then chunked); the in-process hop and short bodies carry text.
    const asBytes = kind === 'nats' && size >= 2_000;
    expectBody(reply, asBytes ? Buffer.from(textOf(size)) : textOf(size));
  });

  it.each([10, 2_000, 40_000])('answers with the text of a body the service holds as bytes (%s rows), and with its bytes when asked', async (size) => {
    await expect(client.request(bytesBody, { size })).resolves.toEqual({ status: 200, contentType: 'application/json', body: textOf(size) });
    expectBody(await client.request(bytesBody, { size }, { bodyAs: 'bytes' }), kind === 'nats' ? Buffer.from(textOf(size)) : textOf(size));
  });

  if (kind === 'nats') {
    it('answers a caller of an older release (no reply-frames header) in plain JSON, never framed', async () => {
      // A rolling upgrade: the gateway of the release before frames knows only Nest's JSON packets.
      const connection = await connect({ servers: TEST_NATS_URL });
      try {
        const message = await connection.request(`${prefix}${textBody.name}`, JSON.stringify({ pattern: `${prefix}${textBody.name}`, data: { size: 2_000 }, id: 'old-caller' }), { timeout: 20_000 });
        const packet = message.json<{ response: { body: string } }>();
        expect(message.data[0]).toBe('{'.charCodeAt(0));
        expect(JSON.parse(packet.response.body)).toHaveLength(2_000);
      } finally {
        await connection.close();
      }
    });

    it('answers a caller of an older release with the text of a body the service holds as bytes, in plain JSON', async () => {
      const connection = await connect({ servers: TEST_NATS_URL });
      try {
        const message = await connection.request(`${prefix}${bytesBody.name}`, JSON.stringify({ pattern: `${prefix}${bytesBody.name}`, data: { size: 10 }, id: 'old-caller' }), { timeout: 20_000 });
        expect(message.data[0]).toBe('{'.charCodeAt(0));
        expect(message.json<{ response: unknown }>().response).toEqual({ status: 200, contentType: 'application/json', body: textOf(10) });
      } finally {
        await connection.close();
      }
    });

    it.each([
      [REPLY_FRAMES.bodies, '{'],
      [REPLY_FRAMES.bodyChunks, '#'],
      [REPLY_FRAMES.headsInHeaders, '['],
      ['9', '['],
    ])('sends a body too large for one message to a caller reading frames %s as chunks starting %s (JSON chunks, raw slices after their heads, or the slices alone)', async (frames, first) => {
      // A gateway of the release before body chunks reads framed bodies but not framed chunks.
      const connection = await connect({ servers: TEST_NATS_URL });
      try {
        const headers = natsHeaders();
        headers.set(HEADERS.replyFrames, frames);
        const replies = await connection.requestMany(`${prefix}${textBody.name}`, JSON.stringify({ pattern: `${prefix}${textBody.name}`, data: { size: 40_000 }, id: 'caller' }), { strategy: 'stall', stall: 1_000, maxWait: 10_000, headers });
        const messages: Uint8Array[] = [];
        for await (const message of replies) {
          messages.push(message.data);
          // A caller reading heads in headers (or naming a later level) finds each chunk's packet there.
          expect(message.headers?.has(HEADERS.replyHead) ?? false).toBe(first === '[');
        }
        // About 1.8 MB of body: 2 raw slices, or 14 JSON chunks, each under NATS's 1 MiB max_payload (Nest marks the last one disposed; no closing message).
        expect(messages.length).toBeGreaterThan(1);
        expect(messages.every((data) => data.length < 1024 * 1024)).toBe(true);
        // Slices alone: only the first starts where the body does.
        expect((first === '[' ? messages.slice(0, 1) : messages).every((data) => data[0] === first.charCodeAt(0))).toBe(true);
      } finally {
        await connection.close();
      }
    });
  }

  it('answers SERVICE_UNAVAILABLE (unreachable) when nobody serves the subject', async () => {
    const error = (await client.request(nobody, {}).catch((err: unknown) => err)) as DomainError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.extra['reason']).toBe('unreachable');
  });

  it('answers SERVICE_UNAVAILABLE (timeout) when the reply is late', async () => {
    const error = (await client.request(slow, { ms: 1_000 }, { timeoutMs: 100 }).catch((err: unknown) => err)) as DomainError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.extra['reason']).toBe('timeout');
  });
});

describe('a NATS server closing (a replica that stops)', () => {
  it('answers the requests it has in hand before its connection closes', async () => {
    const options = optionsFor('nats', uniqueSubjectPrefix('closing'), new InProcessBroker());
    const server = await NestFactory.createMicroservice(TestRpcModule, { strategy: createServerStrategy(options, 'test'), logger: false });
    await server.listen();
    const proxy = createClientProxy(options);
    const client = new ServiceClient(proxy, options, 10_000);
    try {
      const taken = TestRpcController.slowTaken;
      // Longer than Nest's fixed 500 ms grace, which used to cut its answer off.
      const answer = client.request(slow, { ms: 1_500 });
      await waitFor(() => TestRpcController.slowTaken > taken, 'the request to be in hand');
      await server.close();
      await expect(answer).resolves.toEqual({ done: true });
    } finally {
      await proxy.close();
    }
  });
});

describe.each<Kind>(['nats', 'in-process'])('event bus over %s', (kind) => {
  const prefix = uniqueSubjectPrefix(`events-${kind}`);
  const broker = new InProcessBroker();
  const logger = createLogger('test', 'silent');
  let bus: EventBus;

  const envelope = (subject: string, payload: unknown): EventEnvelope => ({ id: randomUUID(), subject, occurredAt: new Date().toISOString(), payload });

  beforeAll(async () => {
    bus = await createEventBus(optionsFor(kind, prefix, broker), logger);
  });

  afterAll(async () => {
    await bus.close();
    if (kind === 'nats') await deleteEventStream(streamNameFor(prefix));
  });

  it('delivers a published event to its durable consumer', async () => {
    const received: EventEnvelope[] = [];
    const stop = await bus.consume({ durable: 'test.first', subject: 'test.evt.first.v1', handle: oneByOne((event) => Promise.resolve(void received.push(event))) });
    const sent = envelope('test.evt.first.v1', { n: 1 });
    await bus.publish(sent);
    await waitFor(() => received.length > 0, 'the event');
    expect(received[0]).toEqual(sent);
    await stop();
  });

  it('fans a broadcast out to every listener', async () => {
    const seen: string[] = [];
    const stops = await Promise.all(['a', 'b'].map((name) => bus.broadcast('test.evt.fanout.v1', () => void seen.push(name))));
    await bus.publish(envelope('test.evt.fanout.v1', {}));
    await waitFor(() => seen.length === 2, 'both listeners');
    expect(seen.sort()).toEqual(['a', 'b']);
    for (const stop of stops) await stop();
  });

  if (kind === 'nats') {
    it('keeps events for a durable consumer while it is down', async () => {
      const received: unknown[] = [];
      const consumer = { durable: 'test.later', subject: 'test.evt.later.v1', handle: oneByOne((event) => Promise.resolve(void received.push(event.payload))) };
      const stop = await bus.consume(consumer);
      await stop();
      await bus.publish(envelope('test.evt.later.v1', { while: 'down' }));
      const restart = await bus.consume(consumer);
      await waitFor(() => received.length > 0, 'the event published while the consumer was down');
      expect(received).toEqual([{ while: 'down' }]);
      await restart();
    });

    it('stops after the batch in hand, and hands what it pulled but had not begun to another replica (not after the 30 s ack wait)', async () => {
      const durable = 'test.stopping';
      const subject = 'test.evt.stopping.v1';
      const first: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const stop = await bus.consume({ durable, subject, handle: oneByOne(async (event) => {
        first.push(event.id);
        await held;
      }) });
      const sent = [envelope(subject, { n: 1 }), envelope(subject, { n: 2 }), envelope(subject, { n: 3 })];
      // The first alone, so it is a batch of its own; the two behind it arrive while it is in hand.
      await bus.publish(sent[0]);
      await waitFor(() => first.length === 1, 'the first message in hand');
      for (const event of sent.slice(1)) await bus.publish(event);
      await waitFor(async () => (await unacknowledged(streamNameFor(prefix), durable)) === 3, 'the two messages behind it pulled');

      // The stop waits for the batch in hand; the two pulled behind it are not begun.
      const stopped = stop();
      release();
      await stopped;
      expect(first).toEqual([sent[0].id]);

      // Another replica gets them well before their 30 s ack wait would have handed them over.
      const other: string[] = [];
      const replica = await bus.consume({ durable, subject, handle: oneByOne((event) => Promise.resolve(void other.push(event.id))) });
      // At least once, as every JetStream delivery (consumers skip a repeat by its event id).
      await waitFor(() => new Set(other).size >= 2, 'the messages handed back');
      expect([...new Set(other)].sort()).toEqual([sent[1].id, sent[2].id].sort());
      await replica();
    });

    it('drops a re-published event id (relay retries are harmless)', async () => {
      const received: string[] = [];
      const stop = await bus.consume({ durable: 'test.dedupe', subject: 'test.evt.dedupe.v1', handle: oneByOne((event) => Promise.resolve(void received.push(event.id))) });
      const once = envelope('test.evt.dedupe.v1', {});
      await bus.publish(once);
      await bus.publish(once);
      await bus.publish(envelope('test.evt.dedupe.v1', { marker: true }));
      await waitFor(() => received.length >= 2, 'the events');
      expect(received.filter((id) => id === once.id)).toHaveLength(1);
      await stop();
    });
  }

  if (kind === 'in-process') {
    it('makes publish fail when a consumer fails, so the outbox keeps the event', async () => {
      const stop = await bus.consume({ durable: 'test.failing', subject: 'test.evt.failing.v1', handle: oneByOne(() => Promise.reject(new Error('not now'))) });
      await expect(bus.publish(envelope('test.evt.failing.v1', {}))).rejects.toThrow('not now');
      await stop();
    });
  }
});

/** Messages a durable consumer has been handed and not acknowledged (in hand, or pulled behind it). */
async function unacknowledged(stream: string, durable: string): Promise<number> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    return (await (await jetstreamManager(nc)).consumers.info(stream, durable.replace(/[^A-Za-z0-9_-]/g, '_'))).num_ack_pending;
  } finally {
    await nc.close();
  }
}
