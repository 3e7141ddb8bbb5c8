import type { AddressInfo } from 'node:net';
import { WebSocket as NodeWebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { openPushChannel, type PushSocket } from './push-channel';

/** Resolves once `check` holds, polling; fails the test after `ms` (a bound, not a timing assertion). */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Against a real WebSocket server (the `ws` package, as the gateway uses), through the `ws`
 * client, which has the browser's event interface: what the channel does when the server speaks,
 * closes, or goes silent with its connection still open (a network gone without a close).
 */
describe('openPushChannel', () => {
  let server: WebSocketServer;
  let address: string;
  let onConnection: (socket: ServerSocket) => void;
  const connections: ServerSocket[] = [];
  const stops: Array<() => void> = [];

  const connect = (url: string): PushSocket => new NodeWebSocket(url);
  const channel = (onSyncNeeded: () => void, silenceMs = 60_000) => {
    const stop = openPushChannel(() => address, onSyncNeeded, { silenceMs, connect });
    stops.push(stop);
    return stop;
  };

  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    address = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
    server.on('connection', (socket) => {
      connections.push(socket);
      onConnection(socket);
    });
  });
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    for (const socket of connections.splice(0)) socket.terminate();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('asks for a sync when the server says sync_needed, and not for its pings', async () => {
    onConnection = (socket) => {
      socket.send('{"type":"ping"}');
      socket.send('{"type":"sync_needed"}');
    };
    let syncs = 0;
    channel(() => syncs++);
    await until(() => syncs === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(syncs).toBe(1);
    expect(connections).toHaveLength(1);
  });

  it('keeps a socket the server keeps pinging, however long', async () => {
    const pingers: NodeJS.Timeout[] = [];
    onConnection = (socket) => pingers.push(setInterval(() => socket.send('{"type":"ping"}'), 40));
    let syncs = 0;
    channel(() => syncs++, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const pinger of pingers) clearInterval(pinger);
    expect(connections).toHaveLength(1);
    expect(syncs).toBe(0);
  });

  it('drops a socket that went silent without closing, opens another and syncs once it opens', async () => {
    // The server accepts and never says a word: what a connection whose network went away looks like.
    onConnection = () => undefined;
    let syncs = 0;
    channel(() => syncs++, 200);
    await until(() => connections.length >= 2 && syncs >= 1);
    expect(syncs).toBe(1);
    // The silent one was closed by the app, not left open beside the new one.
    await until(() => connections[0].readyState === NodeWebSocket.CLOSED);
  });

  it('reconnects after the server closes, and syncs, since changes went unheard meanwhile', async () => {
    onConnection = (socket) => {
      if (connections.length === 1) socket.close(1001, 'going away');
    };
    let syncs = 0;
    channel(() => syncs++);
    await until(() => connections.length === 2 && syncs === 1);
  });

  it('stops for good when closed: no reconnect, no sync', async () => {
    onConnection = () => undefined;
    let syncs = 0;
    const stop = channel(() => syncs++, 100);
    await until(() => connections.length === 1);
    stop();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(connections).toHaveLength(1);
    expect(syncs).toBe(0);
  });
});
