import type { Principal } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { familyOf, RateLimiter } from '../limits/rate-limiter';
import { RouteTable, type RouteMatch } from '../routes/route-table';
import { isMultipart, type MultipartSource, parseInlineMultipart } from '../uploads/inline-multipart';
import { openMultipartUpload } from '../uploads/multipart-upload';
import { MULTIPART_UPLOAD, type WithMultipartUpload } from '../uploads/upload-relay';

export interface RoutedRequest {
  method: string;
  path: string;
  /** The client's address (Express: the socket's, or the forwarded one behind trusted proxies). */
  ip?: string;
  routeMatch?: RouteMatch;
  user?: Principal;
  body?: unknown;
}

/**
 * Finds the route (404/405 otherwise) and, when the route asks for it, authenticates the bearer
 * and counts the request against the user's rate limit. Unauthenticated routes where
 * credentials are tried count against the client address's auth budget instead.
 */
@Injectable()
export class RouteGuard extends AuthGuard('bearer') {
  constructor(
    private readonly routes: RouteTable,
    private readonly rates: RateLimiter,
  ) {
    super({ session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RoutedRequest>();
    const resolution = this.routes.resolve(request.method, request.path);
    if (resolution.kind === 'none') throw new DomainError('ROUTE_NOT_FOUND', `No endpoint at ${request.path}`);
    if (resolution.kind === 'method-not-allowed') {
      throw new DomainError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.path}`, { allowed: resolution.allowed });
    }
    request.routeMatch = resolution.match;
    // A multipart body is read before authentication: its `token` field may be the credential.
    // A streamed upload is opened up to its file part only: the fields before it, the file paused.
    const http = context.switchToHttp().getRequest<RoutedRequest & MultipartSource & WithMultipartUpload>();
    const multipart = isMultipart(http.headers) ? resolution.match.route.multipart : undefined;
    if (multipart === 'inline') request.body = await parseInlineMultipart(http);
    if (multipart === 'stream') {
      const upload = await openMultipartUpload(http);
      http[MULTIPART_UPLOAD] = upload;
      request.body = upload.fields;
    }
    if (resolution.match.route.auth === 'none') {
      if (resolution.match.route.limitBy === 'address') this.rates.takeForAddress(request.ip);
      return true;
    }
    let authenticated: boolean;
    try {
      authenticated = (await super.canActivate(context)) as boolean;
    } catch (err) {
      http[MULTIPART_UPLOAD]?.abandon();
      throw err;
    }
    // Counted per user once the bearer is known; a refused request reaches no service.
    if (authenticated && request.user) this.rates.take(request.user.userId, familyOf(resolution.match.route.dialect));
    return authenticated;
  }

  override handleRequest<T>(err: unknown, user: T): T {
    // Errors from validate() (an unknown token, auth-oauth unreachable) keep their codes.
    if (err) throw err instanceof Error ? err : new DomainError('AUTH_REQUIRED');
    if (!user) throw new DomainError('AUTH_REQUIRED');
    return user;
  }
}
