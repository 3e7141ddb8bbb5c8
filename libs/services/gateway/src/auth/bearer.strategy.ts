import type { Principal } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { PrincipalResolver } from './principal-resolver';

/**
 * `Authorization: Bearer <token>` via passport. An unknown token rejects with AUTH_REQUIRED
 * from auth-oauth; auth-oauth being unreachable surfaces as 503, not as a failed login.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly resolver: PrincipalResolver) {
    super();
  }

  validate(token: string): Promise<Principal> {
    return this.resolver.resolve(token);
  }
}
