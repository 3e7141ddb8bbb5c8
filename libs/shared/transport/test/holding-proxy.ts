import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of NATS that can hold what the server sends the client for a while and
 * then pass it on, in order and whole: what a starved nats-server or a slow network does to
 * messages on their way, without losing any.
 */
export class HoldingProxy {
  private readonly sockets = new Set<Socket>();
  private held: Array<{ to: Socket; chunk: Buffer }> | undefined;

  private constructor(private readonly server: Server) {}

  static async start(target: string): Promise<HoldingProxy> {
    const { hostname, port } = new URL(target);
    const proxy = new HoldingProxy(createServer());
    proxy.server.on('connection', (client: Socket) => proxy.forward(client, hostname, Number(port)));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  private forward(client: Socket, host: string, port: number): void {
    const upstream = createConnection({ host, port });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    }
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => (this.held ? this.held.push({ to: client, chunk }) : client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  get url(): string {
    return `nats://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Holds everything the server sends for `ms`, then passes it on in the order it came. */
  hold(ms: number): Promise<void> {
    this.held = [];
    return new Promise((resolve) =>
      setTimeout(() => {
        const held = this.held ?? [];
        this.held = undefined;
        for (const { to, chunk } of held) to.write(chunk);
        resolve();
      }, ms),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
