import { coalesceWrites } from './coalesced-writes';

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
