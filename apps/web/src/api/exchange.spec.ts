import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransientSendError } from './command-queue';
import { exchange } from './exchange';

/** A real HTTP server whose handler each test sets: the deadline is about sockets, so no fake fetch. */
describe('exchange', () => {
  let server: Server;
  let base: string;
  let handle: (res: ServerResponse, path: string) => void;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => handle(res, req.url ?? '/'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const res of held.splice(0)) res.destroy();
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a JSON answer whole', async () => {
    handle = (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"sync_token":"abc"}');
    await expect(exchange(`${base}/sync`, { method: 'POST' }, 1_000)).resolves.toEqual({ status: 200, ok: true, body: { sync_token: 'abc' } });
  });

  it('gives null for an empty or non-JSON body, keeping the status', async () => {
    handle = (res, path) => (path === '/empty' ? res.writeHead(204).end() : res.writeHead(400).end('not json'));
    await expect(exchange(`${base}/empty`, {}, 1_000)).resolves.toEqual({ status: 204, ok: true, body: null });
    await expect(exchange(`${base}/text`, {}, 1_000)).resolves.toEqual({ status: 400, ok: false, body: null });
  });

  it('gives up on a server that never answers, as a transient failure the queue resends', async () => {
    handle = (res) => void held.push(res);
    const started = Date.now();
    const failure = exchange(`${base}/sync`, { method: 'POST' }, 150);
    await expect(failure).rejects.toBeInstanceOf(TransientSendError);
    await expect(failure).rejects.toThrow('No answer within 0.15 s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('gives up on an answer whose body stops arriving: the deadline covers the body too', async () => {
    handle = (res) => {
      held.push(res);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"items":[');
    };
    await expect(exchange(`${base}/sync`, {}, 150)).rejects.toThrow('No answer within 0.15 s');
  });

  it('turns a body cut short into a transient failure, not an empty success', async () => {
    handle = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"items":[', () => res.destroy());
    };
    await expect(exchange(`${base}/sync`, {}, 5_000)).rejects.toBeInstanceOf(TransientSendError);
  });

  it('turns a refused connection into a transient failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(exchange(`http://127.0.0.1:${port}/sync`, {}, 1_000)).rejects.toBeInstanceOf(TransientSendError);
  });
});
