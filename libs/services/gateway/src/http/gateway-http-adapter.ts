import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { UPLOAD_TIMEOUT_MS } from '@doable/contracts-uploads';
import { ExpressAdapter } from '@nestjs/platform-express';
import { isStreamedUpload } from '../routes/upload-routes';
import { answerClientError } from './client-errors';

/**
 * Express, with Node's server limits set for the edge: headers up to 65 KiB (the public API's
 * limit; Node's default is 16 KiB) and a whole-request deadline. What Node's parser refuses
 * is answered with a coded body too.
 */
export class GatewayHttpAdapter extends ExpressAdapter {
  constructor(
    private readonly maxHeaderBytes: number,
    private readonly requestTimeoutMs: number,
  ) {
    super();
  }

  override initHttpServer(): void {
    // Node's whole-request deadline is one per server: set to the longest (an upload's 5
    // minutes), and every other request held to its own below.
    const longest = Math.max(this.requestTimeoutMs, UPLOAD_TIMEOUT_MS) + 5_000;
    const server: Server = createServer({ maxHeaderSize: this.maxHeaderBytes, requestTimeout: longest }, this.getInstance());
    server.headersTimeout = Math.min(60_000, this.requestTimeoutMs + 5_000);
    server.on('clientError', answerClientError);
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.bodyDeadline(req, res));
    this.setHttpServer(server);
  }

  /** A request body not received within the request timeout (5 minutes for an upload) closes the connection, as Node's requestTimeout would. */
  private bodyDeadline(req: IncomingMessage, res: ServerResponse): void {
    if (isStreamedUpload(req.method ?? '', req.url ?? '')) return;
    const timer = setTimeout(() => {
      if (!req.complete) req.socket.destroy();
    }, this.requestTimeoutMs + 5_000);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    res.once('close', clear);
  }
}
