import type { EdgeReply } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { All, Controller, Inject, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { bodyWithoutFormToken, queryWithoutTokens } from '../auth/bearer-token';
import { HttpErrorFilter } from '../http/http-error.filter';
import type { RoutedRequest } from '../routes/routed-request';
import { sendBlobReply } from '../uploads/blob-reply';
import { EdgeForwarder } from './edge-forwarder';
import { sendReplyBody } from './reply-body';
import { RouteGuard } from './route.guard';
import { UploadRelay, type WithMultipartUpload } from './upload-relay';

function carriesBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/** Every API path lands here; the route table decides where it goes. Express in, Express out. */
@Controller()
@UseGuards(RouteGuard)
@UseFilters(HttpErrorFilter)
export class EdgeController {
  constructor(
    private readonly forwarder: EdgeForwarder,
    private readonly uploads: UploadRelay,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
  ) {}

  @All('{*path}')
  async forward(@Req() req: Request & RoutedRequest & WithMultipartUpload, @Res() res: Response): Promise<void> {
    // A streamed upload (multipart, or api/v1's raw body) is relayed into the blob store, not parsed.
    if (req.routeMatch!.route.multipart === 'stream' && (carriesBody(req) || req.body !== undefined)) return this.send(await this.uploads.relay(req), res);
    if (req.body === undefined && carriesBody(req)) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', req.routeMatch?.route.multipart ? 'Send multipart/form-data, application/json or application/x-www-form-urlencoded' : 'Send application/json or application/x-www-form-urlencoded');
    }
    const reply = await this.forwarder.forward(req.routeMatch!, {
      method: req.method,
      path: req.path,
      query: queryWithoutTokens(req, req.routeMatch!.route),
      body: bodyWithoutFormToken(req, req.routeMatch!.route),
      principal: req.user ?? null,
      requestId: req.header('x-request-id'),
      headers: req.headers,
      origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
    });
    await this.send(reply, res);
  }

  private async send(reply: EdgeReply, res: Response): Promise<void> {
    if (reply.blob) return sendBlobReply(this.store, reply, res);
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if (reply.cookies && reply.cookies.length > 0) res.setHeader('Set-Cookie', [...reply.cookies]);
    res.status(reply.status);
    sendReplyBody(res, reply);
  }
}
