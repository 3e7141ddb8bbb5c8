import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Ends an HTTP server's keep-alive connections on a stop instead of waiting for their clients.
 * `server.close()` alone stops accepting and closes the connections idle at that instant, but a
 * client under load always has its next request on the wire: the server keeps answering it on
 * the same connection until the client goes away (seen: 34 s of serving after SIGTERM). From
 * `stop()` on, every answer, in flight or new on an open connection, carries `Connection: close`,
 * so each connection ends after its current answer and the client reconnects elsewhere.
 */
export class HttpDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private readonly sockets = new Set<Socket>();
  private stopping = false;
  private readonly closed: Promise<void>;

  constructor(private readonly server: Server) {
    this.closed = new Promise((resolve) => server.once('close', () => resolve()));
    // Before any other listener (Express), so the header is set before anything answers.
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => this.track(response));
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Connections not yet ended (upgraded ones, such as WebSockets, are their owner's to close). */
  get openConnections(): number {
    return this.sockets.size;
  }

  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /**
   * Stops accepting, marks every answer from now on as the connection's last and closes the idle
   * connections. Resolves once the last connection has ended (the caller bounds the wait).
   */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      if (this.server.listening) this.server.close();
      for (const response of this.inFlight) lastOnConnection(response);
      this.server.closeIdleConnections();
    }
    return this.server.listening || this.sockets.size > 0 ? this.closed : Promise.resolve();
  }

  /** The deadline passed: cut whatever is still open. */
  forceClose(): void {
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
  }

  private track(response: ServerResponse): void {
    if (this.stopping) return lastOnConnection(response);
    this.inFlight.add(response);
    response.once('close', () => this.inFlight.delete(response));
  }
}

/** Node ends the connection after an answer whose Connection header says close. */
function lastOnConnection(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
  // An answer already streaming said keep-alive: its connection ends once the answer is out.
  else response.once('finish', () => response.socket?.end());
}
