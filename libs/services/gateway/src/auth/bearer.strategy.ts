import type { Principal } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import type { RoutedRequest } from '../edge/route.guard';
import { authorizationFor, type TokenSource } from './bearer-token';
import { PrincipalResolver } from './principal-resolver';

/**
 * passport-http-bearer, shown only the token places the route accepts: it would otherwise
 * also take `access_token` from the query string and from any body, on every route.
 */
type Verify = (token: string, done: (error: unknown, user?: unknown) => void) => void;

class EdgeBearer extends Strategy<Verify> {
  override authenticate(req: Request, options?: object): void {
    const routed = req as unknown as TokenSource & RoutedRequest;
    const authorization = routed.routeMatch ? authorizationFor(routed, routed.routeMatch.route) : undefined;
    // A view of the request holding only that header: nothing else for the strategy to find a token in.
    super.authenticate({ headers: { authorization } } as unknown as Request, options);
  }
}

/**
 * `Authorization: Bearer <token>` via passport. An unknown token rejects with AUTH_REQUIRED
 * from auth-oauth; auth-oauth being unreachable surfaces as 503, not as a failed login.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(EdgeBearer, 'bearer') {
  constructor(private readonly resolver: PrincipalResolver) {
    super();
  }

  validate(token: string): Promise<Principal> {
    return this.resolver.resolve(token);
  }
}
