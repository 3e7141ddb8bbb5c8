import { PING, type PushSocket, PushSockets, SYNC_NEEDED } from './push-sockets';

class FakeSocket implements PushSocket {
  readonly sent: string[] = [];
  closed?: number;
  send(data: string): void {
    this.sent.push(data);
  }
  close(code?: number): void {
    this.closed = code;
  }
}

describe('PushSockets', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const registry = () => new PushSockets({ perUser: 2, total: 3, coalesceMs: 100 });

  it('tells only the named users, on every socket they have', () => {
    const sockets = registry();
    const [a1, a2, b] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    sockets.add('1', a1);
    sockets.add('1', a2);
    sockets.add('2', b);
    sockets.tell(['1', '3']);
    expect([a1.sent, a2.sent, b.sent]).toEqual([[SYNC_NEEDED], [SYNC_NEEDED], []]);
  });

  it('coalesces a burst into the first message and one at the end of the window', () => {
    const sockets = registry();
    const socket = new FakeSocket();
    sockets.add('1', socket);
    sockets.tell(['1']);
    sockets.tell(['1']);
    sockets.tell(['1']);
    expect(socket.sent).toEqual([SYNC_NEEDED]);
    jest.advanceTimersByTime(100);
    expect(socket.sent).toEqual([SYNC_NEEDED, SYNC_NEEDED]);
    jest.advanceTimersByTime(500);
    expect(socket.sent).toHaveLength(2);
  });

  it("a user's socket beyond the cap closes their oldest; the replica's cap refuses more", () => {
    const sockets = registry();
    const [first, second, third] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    sockets.add('1', first);
    sockets.add('1', second);
    sockets.add('1', third);
    expect(first.closed).toBe(1008);
    expect(sockets.size).toBe(2);
    sockets.add('2', new FakeSocket());
    expect(sockets.hasRoom()).toBe(false);
    sockets.tell(['1']);
    expect([first.sent, second.sent, third.sent]).toEqual([[], [SYNC_NEEDED], [SYNC_NEEDED]]);
  });

  it('removed sockets hear nothing; pings reach all; closeAll closes all', () => {
    const sockets = registry();
    const [kept, gone] = [new FakeSocket(), new FakeSocket()];
    sockets.add('1', kept);
    sockets.add('2', gone);
    sockets.remove('2', gone);
    sockets.pingAll();
    expect([kept.sent, gone.sent]).toEqual([[PING], []]);
    sockets.closeAll();
    expect(kept.closed).toBe(1001);
    expect(sockets.size).toBe(0);
  });
});
