import { DomainError } from '@doable/shared-errors';
import { All, Controller, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { bodyWithoutFormToken, queryWithoutTokens } from '../auth/bearer-token';
import { HttpErrorFilter } from '../http/http-error.filter';
import { EdgeForwarder } from './edge-forwarder';
import { RouteGuard, type RoutedRequest } from './route.guard';

function carriesBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/** Every API path lands here; the route table decides where it goes. Express in, Express out. */
@Controller()
@UseGuards(RouteGuard)
@UseFilters(HttpErrorFilter)
export class EdgeController {
  constructor(private readonly forwarder: EdgeForwarder) {}

  @All('{*path}')
  async forward(@Req() req: Request & RoutedRequest, @Res() res: Response): Promise<void> {
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
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if (reply.cookies && reply.cookies.length > 0) res.setHeader('Set-Cookie', [...reply.cookies]);
    res.status(reply.status);
    if (reply.status === 204 || reply.body === null || reply.body === undefined) res.end();
    else if (reply.contentType !== undefined) res.type(reply.contentType).send(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    else res.json(reply.body);
  }
}
