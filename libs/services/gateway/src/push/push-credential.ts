import type { IncomingMessage } from 'node:http';
import { readDecision, readScopes, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import { PrincipalResolver } from '../auth/principal-resolver';

const BEARER = /^Bearer +(\S+)$/i;

/**
 * Whose push socket an upgrade request opens. Browsers cannot set headers on a WebSocket, so
 * the user object's `websocket_url` carries a push token in `?token=` (made and checked by sync:
 * no key to share); other clients may send their API token as `Authorization: Bearer` instead,
 * checked as on every route. Any Origin is accepted: nothing here rides on cookies.
 */
@Injectable()
export class PushCredential {
  constructor(
    private readonly services: ServiceClient,
    private readonly principals: PrincipalResolver,
  ) {}

  async userId(request: IncomingMessage, url: URL): Promise<string> {
    const token = url.searchParams.get('token');
    if (token) return (await this.services.request(SyncSubjects.verifyPushToken, { token })).userId;
    const bearer = BEARER.exec(request.headers.authorization ?? '');
    if (bearer) {
      const principal = await this.principals.resolve(bearer[1]);
      // When data changes is data too: a token that may only add tasks (task:add) does not hear it.
      if (readDecision('push', principal) !== 'ok') {
        throw new DomainError('FORBIDDEN', 'This token may not read data', { required_scopes: readScopes('push') });
      }
      return principal.userId;
    }
    throw new DomainError('AUTH_REQUIRED');
  }
}
