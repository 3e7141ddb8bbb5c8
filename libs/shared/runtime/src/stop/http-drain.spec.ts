import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpDrain } from './http-drain';

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly reused: boolean;
}

/** One GET on a kept-alive agent; `reused` says whether it rode an existing connection. */
function get(port: number, agent: Agent, path = '/'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HttpDrain', () => {
  let server: Server;
  let drain: HttpDrain;
  let port: number;
  let agent: Agent;
  /** Requests to /slow wait for this before they are answered. */
  let release: () => void;
  let held: Promise<void>;

  beforeEach(async () => {
    held = new Promise((resolve) => (release = resolve));
    server = createServer((req, res) => {
      const answer = () => res.end('ok');
      if (req.url === '/slow') void held.then(answer);
      else if (req.url === '/busy') setTimeout(answer, 10);
      else answer();
    });
    // Like the gateway: the server keeps idle connections longer than clients do.
    server.keepAliveTimeout = 65_000;
    drain = new HttpDrain(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });

  afterEach(() => {
    agent.destroy();
    server.closeAllConnections();
    server.close();
  });

  it('ends a connection a client keeps busy after its current answer, so the server closes', async () => {
    // A client under load: its next request is always on the wire (server.close() alone waits for it forever).
    let stopped = false;
    const answers: Answer[] = [];
    const load = (async () => {
      while (!stopped) answers.push(await get(port, agent, '/busy').catch(() => ({ status: 0, headers: {}, reused: false })));
    })();
    while (answers.length < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.slice(1).every((answer) => answer.reused)).toBe(true);
    // The stop comes while a request is being answered (the connection is not idle).
    while (drain.requestsInFlight < 1) await new Promise((resolve) => setImmediate(resolve));

    await drain.stop();
    stopped = true;
    await load;
    expect(server.listening).toBe(false);
    // The last answer on the kept-alive connection told the client so.
    expect(answers.filter((answer) => answer.status === 200).at(-1)?.headers.connection).toBe('close');
  });

  it('answers a request in flight with Connection: close and closes idle connections at once', async () => {
    const idleAgent = new Agent({ keepAlive: true });
    expect((await get(port, idleAgent)).status).toBe(200);
    expect(drain.openConnections).toBe(1);
    const slow = get(port, agent, '/slow');
    while (drain.requestsInFlight < 1) await new Promise((resolve) => setTimeout(resolve, 5));

    const stopped = drain.stop();
    // The idle kept-alive connection is gone; the one answering stays until its answer is out.
    while (drain.openConnections > 1) await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    const answer = await slow;
    expect({ status: answer.status, connection: answer.headers.connection }).toEqual({ status: 200, connection: 'close' });
    // Resolves on the server's close, which waits for every connection.
    await stopped;
    expect(server.listening).toBe(false);
    idleAgent.destroy();
  });
});
