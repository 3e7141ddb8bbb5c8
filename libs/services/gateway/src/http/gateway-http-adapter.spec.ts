import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayHttpAdapter } from './gateway-http-adapter';

describe('GatewayHttpAdapter', () => {
  let adapter: GatewayHttpAdapter;
  let server: Server;
  let url: string;
  const arrived: Array<{ request: object; response: object }> = [];

  beforeAll(async () => {
    adapter = new GatewayHttpAdapter(65 * 1024, 10_000, 60_000);
    adapter.initHttpServer();
    const made: Server = adapter.getHttpServer();
    server = made;
    // Seen before Express takes the request (this listener runs first).
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => arrived.push({ request: Object.getPrototypeOf(req) as object, response: Object.getPrototypeOf(res) as object }));
    adapter.getInstance<{ post(path: string, handler: (req: { path: string }, res: { json(body: unknown): void }) => void): void }>().post('/echo', (req, res) => res.json({ path: req.path }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("makes requests and responses with Express's prototypes, so Express's own change of them is none", async () => {
    const app = adapter.getInstance<{ request: object; response: object }>();
    const answer = await fetch(`${url}/echo`, { method: 'POST' });
    expect(await answer.json()).toEqual({ path: '/echo' });
    expect(arrived.at(-1)).toEqual({ request: app.request, response: app.response });
  });
});
