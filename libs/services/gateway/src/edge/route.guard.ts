import type { ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import { DomainError } from '@doable/shared-errors';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { BearerAuthenticator } from '../auth/bearer-authenticator';
import { DEPRECATED_GENERATIONS, deprecationHeaders, type DeprecationSettings } from '../generations/deprecation-notices';
import { DEPRECATION_SETTINGS } from '../generations/deprecation-settings.token';
import { RateLimiter } from '../limits/rate-limiter';
import { RouteTable } from '../routes/route-table';
import type { RoutedRequest } from '../routes/routed-request';
import { isMultipart, type MultipartSource, parseInlineMultipart, readInlineMultipart } from '../uploads/inline-multipart';
import { type MultipartUpload, openMultipartUpload } from '../uploads/multipart-upload';
import { MULTIPART_UPLOAD, type WithMultipartUpload } from './upload-relay';

/**
 * Finds the route (404/405 otherwise), marks an old generation's answer deprecated and, when the
 * route asks for it, authenticates the bearer and counts the request against the user's rate
 * limits (its family's, and its generation's own where it has one). Unauthenticated routes where
 * credentials are tried count against the client address's auth budget instead.
 */
@Injectable()
export class RouteGuard implements CanActivate {
  /** Each old generation's deprecation headers, written once: the dates are fixed at start-up. */
  private readonly notices: ReadonlyMap<string, readonly (readonly [string, string])[]>;

  constructor(
    private readonly routes: RouteTable,
    private readonly rates: RateLimiter,
    private readonly bearer: BearerAuthenticator,
    @Inject(DEPRECATION_SETTINGS) deprecations: DeprecationSettings,
  ) {
    this.notices = new Map(DEPRECATED_GENERATIONS.map((generation) => [generation, Object.entries(deprecationHeaders(generation, deprecations))]));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RoutedRequest>();
    const resolution = this.routes.resolve(request.method, request.path);
    if (resolution.kind === 'none') throw new DomainError('ROUTE_NOT_FOUND', `No endpoint at ${request.path}`);
    if (resolution.kind === 'method-not-allowed') {
      throw new DomainError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.path}`, { allowed: resolution.allowed });
    }
    request.routeMatch = resolution.match;
    const route = resolution.match.route;
    const http = context.switchToHttp().getRequest<RoutedRequest & MultipartSource & WithMultipartUpload>();
    const res = context.switchToHttp().getResponse<ServerResponse>();
    // Set before anything can refuse the request: a 401 or 429 on an old path is marked too.
    for (const [name, value] of this.notices.get(route.dialect) ?? []) res.setHeader(name, value);
    const multipart = isMultipart(http.headers) ? route.multipart : undefined;
    if (route.auth === 'none') {
      if (route.limitBy === 'address') this.rates.takeForAddress(request.ip);
      await this.readMultipart(http, multipart);
      return true;
    }
    // The body is read only once the caller is known: a stranger's file is never read or
    // stored. Only where the credential may be a form field (v8 and older, the first
    // generation) and no Authorization header came are the fields before the file read first,
    // bounded, and the file left unread until the token in them is checked.
    const tokenInForm = multipart !== undefined && (route.formToken === true || route.legacyToken === true) && http.headers['authorization'] === undefined;
    const opened = tokenInForm ? await openMultipartUpload(http) : undefined;
    if (opened) request.body = opened.fields;
    try {
      request.user = await this.bearer.authenticate(http, route);
      // Counted per user once the bearer is known; a refused request reaches no service.
      this.rates.takeForUser(request.user.userId, route.dialect);
    } catch (err) {
      await refuseBody(http, res, opened);
      throw err;
    }
    if (opened) {
      if (multipart === 'inline') request.body = await readInlineMultipart(opened);
      else http[MULTIPART_UPLOAD] = opened;
    } else {
      await this.readMultipart(http, multipart);
    }
    return true;
  }

  /** A multipart body as its route takes it: parsed whole (inline), or opened up to its file (stream). */
  private async readMultipart(http: RoutedRequest & MultipartSource & WithMultipartUpload, multipart: 'inline' | 'stream' | undefined): Promise<void> {
    if (multipart === 'inline') http.body = await parseInlineMultipart(http);
    if (multipart === 'stream') {
      const upload = await openMultipartUpload(http);
      http[MULTIPART_UPLOAD] = upload;
      http.body = upload.fields;
    }
  }
}

/**
 * A refused body this small (by its Content-Length) is drained to its end before the refusal
 * goes out, within DRAIN_WAIT_MS; anything larger, of unknown length or slower is not waited for.
 */
const DRAIN_BEFORE_REFUSAL_BYTES = 1024 * 1024;
const DRAIN_WAIT_MS = 5_000;

/**
 * A refused request's body is not kept: an opened multipart body is abandoned (its file part
 * ended unread) and the rest is drained as it comes (never buffered). A small body is drained
 * to its end first and the connection kept: a client still writing when a refusal came with
 * the connection closed saw its write fail instead of the answer (Node's fetch reported "fetch
 * failed" for a 401 on an upload of a few bytes). A larger one gets the refusal at once with the
 * connection closed, so a client still sending learns of it and stops, and a stranger's file is
 * never taken in.
 */
async function refuseBody(req: MultipartSource, res: ServerResponse, opened: MultipartUpload | undefined): Promise<void> {
  opened?.abandon();
  if ((req as MultipartSource & { complete?: boolean }).complete === true) return;
  req.resume();
  const length = Number(req.headers['content-length'] ?? NaN);
  if (Number.isSafeInteger(length) && length <= DRAIN_BEFORE_REFUSAL_BYTES && (await ended(req, DRAIN_WAIT_MS))) return;
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/** Whether the body ends within `ms` (false if it fails, is aborted or is still coming). */
async function ended(req: MultipartSource, ms: number): Promise<boolean> {
  try {
    await finished(req, { writable: false, signal: AbortSignal.timeout(ms) });
    return true;
  } catch {
    return false;
  }
}
