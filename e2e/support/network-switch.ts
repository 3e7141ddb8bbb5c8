import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';

/**
 * A person's connection, as a forward proxy their browser context goes through: switched off,
 * it takes no request and cuts every connection it holds, as a dropped network does.
 *
 * Why not only Chromium's offline emulation (`context.setOffline`)? It tells the app (navigator.onLine,
 * failed fetches), and it is still switched with this one; but with a service worker controlling
 * the page, a write the page saw fail as ERR_INTERNET_DISCONNECTED reached the server anyway, on
 * a quiet machine too (web-app-working-day, session 24), and a route refusing the APIs did not
 * stop it either. A request that has to pass here while it is off reaches nothing.
 */
export class NetworkSwitch {
  private online = true;
  /** Browser-side sockets and the tunnels' server-side ones: what going off cuts. */
  private readonly open = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<NetworkSwitch> {
    const server = createServer();
    const network = new NetworkSwitch(server);
    server.on('connection', (socket: Socket) => network.track(socket));
    server.on('request', (request: IncomingMessage, response) => {
      if (!network.online) return void request.socket.destroy();
      const target = new URL(request.url ?? '/');
      const headers = { ...request.headers };
      delete headers['proxy-connection'];
      const upstream = forward({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        answer.on('error', () => response.destroy());
      });
      upstream.on('error', () => response.destroy());
      request.on('error', () => upstream.destroy());
      request.pipe(upstream);
    });
    // The push channel's WebSocket goes through a tunnel.
    server.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => {
      if (!network.online) return void socket.destroy();
      const [host, port] = (request.url ?? '').split(':');
      const upstream = network.track(connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      }));
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
      socket.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return network;
  }

  /** The proxy settings a browser context takes (loopback too: Chromium skips the proxy for it unless told). */
  get proxy(): NonNullable<BrowserContextOptions['proxy']> {
    return { server: `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`, bypass: '<-loopback>' };
  }

  setOnline(online: boolean): void {
    this.online = online;
    if (!online) for (const socket of this.open) socket.destroy();
  }

  async close(): Promise<void> {
    this.setOnline(false);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): Socket {
    this.open.add(socket);
    socket.on('close', () => this.open.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  }
}

const switches = new WeakMap<BrowserContext, NetworkSwitch>();

/** A browser context whose connection `setOnline` can cut; its switch closes with it. */
export async function contextWithSwitch(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const network = await NetworkSwitch.start();
  try {
    const context = await browser.newContext({ ...options, proxy: network.proxy });
    switches.set(context, network);
    context.on('close', () => void network.close());
    return context;
  } catch (err) {
    await network.close();
    throw err;
  }
}

/**
 * Takes a browser context off the network, or back on: its switch (when it was made by
 * `contextWithSwitch`) and Chromium's offline emulation, which is what the app sees.
 */
export async function setOnline(context: BrowserContext, online: boolean): Promise<void> {
  const network = switches.get(context);
  if (!network) throw new Error('setOnline: this context was not made by contextWithSwitch, so nothing could cut its connection');
  if (!online) network.setOnline(false);
  await context.setOffline(!online);
  if (online) network.setOnline(true);
}
