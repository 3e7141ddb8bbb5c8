import type { Principal } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { Route } from '../routes/route';
import { authorizationFor, type TokenSource } from './bearer-token';
import { PrincipalResolver } from './principal-resolver';

/**
 * RFC 6750 §2.1's header form: `Bearer <token>`, the scheme in any case and one space, as
 * passport-http-bearer read it. Anything else is no credential (AUTH_REQUIRED), never a guess.
 */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const parts = authorization.split(' ');
  if (parts.length !== 2 || !/^Bearer$/i.test(parts[0]) || parts[1] === '') return undefined;
  return parts[1];
}

/**
 * Who is calling: the bearer token from the places the route accepts (bearer-token.ts), resolved
 * by auth-oauth through the principal cache. An unknown token keeps auth-oauth's code
 * (AUTH_INVALID_TOKEN), auth-oauth unreachable its 503; no token is AUTH_REQUIRED.
 *
 * Not passport: its strategies live in one registry per process, so with two gateways in one
 * process (a second replica beside a cluster's own, and the test tiers' shared systems of both
 * modes) every gateway authenticated with the strategy registered last, against another
 * system's auth-oauth. What passport-http-bearer did here was to read one header.
 */
@Injectable()
export class BearerAuthenticator {
  constructor(private readonly resolver: PrincipalResolver) {}

  async authenticate(request: TokenSource, route: Route): Promise<Principal> {
    const token = bearerTokenOf(authorizationFor(request, route));
    if (token === undefined) throw new DomainError('AUTH_REQUIRED');
    return this.resolver.resolve(token);
  }
}
