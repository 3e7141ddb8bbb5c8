import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import { UPLOAD_TIMEOUT_MS } from '@doable/contracts-uploads';
import { DomainError, ERROR_CATALOG, todoistErrorBody } from '@doable/shared-errors';
import { ExpressAdapter } from '@nestjs/platform-express';
import { isStreamedUpload } from '../routes/upload-routes';
import { answerClientError } from './client-errors';

/** How long a refused connection may take to flush its 408 before it is cut. */
const FLUSH_GRACE_MS = 2_000;

/**
 * Express, with Node's server limits set for the edge: headers up to 65 KiB (the public API's
 * limit; Node's default is 16 KiB) and a whole-request deadline. What Node's parser refuses
 * is answered with a coded body too.
 */
export class GatewayHttpAdapter extends ExpressAdapter {
  constructor(
    private readonly maxHeaderBytes: number,
    private readonly requestTimeoutMs: number,
    /** A streamed upload's whole body (5 minutes unless configured). */
    private readonly uploadBodyTimeoutMs: number = UPLOAD_TIMEOUT_MS,
  ) {
    super();
  }

  override initHttpServer(): void {
    // Each request is held to its own deadline below; Node's one-per-server deadline (checked
    // every 30 s) is only the backstop behind the longest of them.
    const longest = Math.max(this.requestTimeoutMs + 5_000, this.uploadBodyTimeoutMs) + 30_000;
    const app = this.getInstance<((req: IncomingMessage, res: ServerResponse) => void) & { request: object; response: object }>();
    const server: Server = createServer(
      {
        maxHeaderSize: this.maxHeaderBytes,
        requestTimeout: longest,
        // Requests and responses made with Express's prototypes from the start (see expressMade).
        IncomingMessage: expressMade(IncomingMessage, app, 'request'),
        ServerResponse: expressMade(ServerResponse, app, 'response'),
      },
      app,
    );
    server.headersTimeout = Math.min(60_000, this.requestTimeoutMs + 5_000);
    // An idle keep-alive connection is closed by the side that times out first. Node's 5 s is
    // shorter than what clients and load balancers keep (60 s is common): a client then sends its
    // next request on a socket this server is closing, and sees ECONNRESET for a request it never
    // got an answer to (seen from Node's fetch when the machine was busy). The server outlasts them.
    server.keepAliveTimeout = 65_000;
    server.on('clientError', answerClientError);
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.bodyDeadline(req, res));
    this.setHttpServer(server);
  }

  /**
   * A request body not received within its deadline (the request timeout, or an upload's) is
   * ended by the server, however slowly it trickles: answered 408 with a coded body if no answer
   * has started, and its connection closed. Closing it aborts the request, which fails whatever
   * was reading the body (the multipart parser, the blob store's put, which deletes its partial
   * file), so nothing the request held stays.
   */
  private bodyDeadline(req: IncomingMessage, res: ServerResponse): void {
    const deadline = isStreamedUpload(req.method ?? '', req.url ?? '') ? this.uploadBodyTimeoutMs : this.requestTimeoutMs + 5_000;
    const timer = setTimeout(() => {
      if (!req.complete) answerRequestTimeout(req, res);
    }, deadline);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    res.once('close', clear);
  }
}

/**
 * A subclass of Node's request (or response) whose prototype Express takes as its own. Express
 * sets the prototype of each request and response to `app.request` (`app.response`) as it takes
 * them; changed after construction, every request's object took a V8 map transition, and every
 * property added to it afterwards (Express's router, body parsing, the route guard) more of them.
 * Here the objects are made with that prototype: the subclass's own sits between them and
 * Express's, and is then Express's `app.request`, so its change is a no-op. They have every
 * method and getter Express gives them, as before; only their making is earlier.
 */
function expressMade<T extends typeof IncomingMessage | typeof ServerResponse>(Base: T, app: Record<'request' | 'response', object>, kind: 'request' | 'response'): T {
  const Made = class extends Base {};
  Object.setPrototypeOf(Made.prototype, app[kind]);
  app[kind] = Made.prototype;
  return Made;
}

function answerRequestTimeout(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  // The request itself too: once its answer is sent, Node no longer aborts it when the socket
  // closes, and whatever reads it (a blob store's put) would wait for an end that never comes.
  const cut = (): void => {
    req.destroy();
    socket.destroy();
  };
  if (res.headersSent) return cut();
  const body = JSON.stringify(todoistErrorBody(new DomainError('REQUEST_TIMEOUT')));
  res.writeHead(ERROR_CATALOG.REQUEST_TIMEOUT.http, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' });
  res.end(body, cut);
  // A client that reads nothing (it only trickles) cannot hold the connection by not taking the answer.
  setTimeout(cut, FLUSH_GRACE_MS).unref();
}
