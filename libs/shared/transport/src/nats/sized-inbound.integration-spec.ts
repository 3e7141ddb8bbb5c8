import { randomBytes } from 'node:crypto';
import { TEST_NATS_URL } from '@doable/shared-testing';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { sizeInboundMessages } from './sized-inbound';

interface BareParser {
  msgBuf?: { capacity: number; length: number };
  parse(buf: Uint8Array): void;
}

/** A parser of nats.js' own class, its messages collected (what the protocol handler would be given). */
function bareParser(connection: NatsConnection): { parser: BareParser; messages: Uint8Array[] } {
  const { parser } = (connection as unknown as { protocol: { parser: BareParser } }).protocol;
  const messages: Uint8Array[] = [];
  const dispatcher = { push: (event: { kind: number; data?: Uint8Array }) => event.data && messages.push(event.data) };
  const Parser = parser.constructor as new (dispatcher: unknown) => BareParser;
  return { parser: new Parser(dispatcher), messages };
}

/** `bytes` cut into reads of `size` bytes, as a socket hands them over. */
function reads(bytes: Buffer, size: number): Buffer[] {
  const cut: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) cut.push(bytes.subarray(at, at + size));
  return cut;
}

/** Compared as bytes: jest walks a Buffer element by element, which takes seconds for a megabyte. */
const sameBytes = (actual: readonly Uint8Array[], expected: readonly Buffer[]): boolean =>
  actual.length === expected.length && actual.every((data, index) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).equals(expected[index]));

describe('sizeInboundMessages', () => {
  let connection: NatsConnection;

  beforeAll(async () => {
    connection = sizeInboundMessages(await connect({ servers: TEST_NATS_URL }));
  });

  afterAll(() => connection.close());

  it('gathers a message spanning many reads in one buffer of its size, and hands over the same bytes', () => {
    const { parser, messages } = bareParser(connection);
    const payloads = [randomBytes(900 * 1024), randomBytes(70_000), randomBytes(10)];
    const stream = Buffer.concat(payloads.flatMap((payload, index) => [Buffer.from(`MSG subject ${index} ${payload.length}\r\n`), payload, Buffer.from('\r\n')]));
    const capacities: number[] = [];
    for (const read of reads(stream, 64 * 1024)) {
      parser.parse(read);
      if (parser.msgBuf) capacities.push(parser.msgBuf.capacity);
    }
    expect(sameBytes(messages, payloads)).toBe(true);
    // Sized once when gathering began: never grown (by doubling, copying what it held) as reads arrived.
    expect(new Set(capacities.filter((capacity) => capacity >= 900 * 1024))).toEqual(new Set([900 * 1024]));
  });

  it('receives large messages with headers intact over a real connection', async () => {
    const subject = `sized-inbound.${randomBytes(4).toString('hex')}`;
    const payloads = [randomBytes(900 * 1024), randomBytes(300_000), Buffer.alloc(0)];
    const received: Array<{ data: Buffer; mark: string | undefined }> = [];
    const done = new Promise<void>((resolve) => {
      connection.subscribe(subject, {
        callback: (_err, message) => {
          received.push({ data: Buffer.from(message.data), mark: message.headers?.get('x-mark') });
          if (received.length === payloads.length) resolve();
        },
      });
    });
    await connection.flush();
    const sender = await connect({ servers: TEST_NATS_URL });
    try {
      payloads.forEach((payload, index) => {
        const headers = natsHeaders();
        headers.set('x-mark', String(index));
        sender.publish(subject, payload, { headers });
      });
      await sender.flush();
      await done;
    } finally {
      await sender.close();
    }
    expect(received.map(({ mark }) => mark)).toEqual(payloads.map((_payload, index) => String(index)));
    expect(sameBytes(received.map(({ data }) => data), payloads)).toBe(true);
  });
});
