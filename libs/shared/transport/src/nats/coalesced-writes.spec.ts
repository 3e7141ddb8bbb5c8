import { coalesceWrites, SEND_AS_QUEUED_FROM_BYTES } from './coalesced-writes';

/** The part of nats.js' ProtocolHandler that coalesceWrites touches, counting real flushes. */
function fakeConnection(pendingLimit = 100) {
  const protocol = {
    pending: 0,
    writes: [] as number[],
    closed: false,
    pendingLimit,
    outbound: { size: () => protocol.pending },
    queue(bytes: number) {
      protocol.pending += bytes;
      protocol.flushPending();
    },
    flushPending() {
      if (protocol.pending === 0) return;
      protocol.writes.push(protocol.pending);
      protocol.pending = 0;
    },
    close() {
      protocol.closed = true;
      return Promise.resolve();
    },
  };
  return { protocol };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesceWrites', () => {
  it('writes what several turns queued before the loop reaches its check phase in one write', async () => {
    const connection = coalesceWrites(fakeConnection());
    connection.protocol.queue(10);
    await Promise.resolve();
    connection.protocol.queue(20);
    expect(connection.protocol.writes).toEqual([]);
    await nextTurn();
    expect(connection.protocol.writes).toEqual([30]);
  });

  it('still writes a full buffer at once', () => {
    const connection = coalesceWrites(fakeConnection(100));
    connection.protocol.queue(60);
    connection.protocol.queue(60);
    expect(connection.protocol.writes).toEqual([120]);
  });

  it('writes what is pending before closing', async () => {
    const connection = coalesceWrites(fakeConnection());
    connection.protocol.queue(10);
    await (connection.protocol as unknown as { close(): Promise<void> }).close();
    expect(connection.protocol.writes).toEqual([10]);
    expect(connection.protocol.closed).toBe(true);
  });

  it('leaves a client of an unknown shape as it is', () => {
    const odd = { protocol: { flushPending: () => undefined } };
    const flush = odd.protocol.flushPending;
    expect(coalesceWrites(odd).protocol.flushPending).toBe(flush);
  });
});

describe('coalesceWrites, a large write', () => {
  /** nats.js' outbound queue and transport as coalesceWrites sees them: buffers queued, frames sent. */
  function queuedConnection() {
    const sent: Uint8Array[] = [];
    const corks: string[] = [];
    const protocol = {
      infoReceived: true,
      connected: true,
      pendingLimit: 32 * 1024,
      outbound: {
        buffers: [] as Uint8Array[],
        size: () => protocol.outbound.buffers.reduce((sum, buffer) => sum + buffer.length, 0),
        reset: () => {
          protocol.outbound.buffers.length = 0;
        },
      },
      transport: {
        send: (frame: Uint8Array) => sent.push(frame),
        socket: { cork: () => corks.push('cork'), uncork: () => corks.push('uncork') },
      },
      queue(...buffers: Uint8Array[]) {
        protocol.outbound.buffers.push(...buffers);
        protocol.flushPending();
      },
      // nats.js' own flush: everything pending copied into one buffer.
      flushPending() {
        if (protocol.outbound.size() === 0) return;
        sent.push(Buffer.concat(protocol.outbound.buffers));
        protocol.outbound.reset();
      },
      close: () => Promise.resolve(),
    };
    return { connection: coalesceWrites({ protocol }), sent, corks };
  }

  it('hands the socket each queued buffer, in order and uncopied, in one corked write', () => {
    const { connection, sent, corks } = queuedConnection();
    const head = Buffer.from('PUB reply 300000\r\n');
    const payload = Buffer.alloc(SEND_AS_QUEUED_FROM_BYTES, 1);
    const end = Buffer.from('\r\n');
    connection.protocol.queue(head, payload, end);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toBe(head);
    expect(sent[1]).toBe(payload);
    expect(sent[2]).toBe(end);
    expect(corks).toEqual(['cork', 'uncork']);
    expect(connection.protocol.outbound.size()).toBe(0);
  });

  it('packs a small write into one buffer as nats.js does', async () => {
    const { connection, sent } = queuedConnection();
    connection.protocol.queue(Buffer.from('PUB a 1\r\n'), Buffer.from('x'), Buffer.from('\r\n'));
    await nextTurn();
    expect(sent.map((buffer) => Buffer.from(buffer).toString())).toEqual(['PUB a 1\r\nx\r\n']);
  });

  it('leaves what is pending to nats.js while it is not connected', () => {
    const { connection, sent } = queuedConnection();
    connection.protocol.connected = false;
    connection.protocol.queue(Buffer.alloc(SEND_AS_QUEUED_FROM_BYTES));
    expect(sent).toHaveLength(1);
  });
});
