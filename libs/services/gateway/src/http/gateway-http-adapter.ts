import { createServer, type Server } from 'node:http';
import { ExpressAdapter } from '@nestjs/platform-express';
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
    const server: Server = createServer({ maxHeaderSize: this.maxHeaderBytes, requestTimeout: this.requestTimeoutMs + 5_000 }, this.getInstance());
    server.headersTimeout = Math.min(60_000, this.requestTimeoutMs + 5_000);
    server.on('clientError', answerClientError);
    this.setHttpServer(server);
  }
}
