import { hashToken } from '@doable/contracts-auth';
import type { EdgeReply } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import { SESSION_COOKIE, type WebExchange } from '../exchange/web-exchange';
import { WEB_APP_CLIENT_ID, WEB_APP_SCOPES } from '../oauth/first-party-client';
import { OAuthAppService } from '../oauth/oauth-app.service';
import { OAuthService } from '../oauth/oauth.service';
import { SessionService } from './session.service';

/**
 * How long one of the web app's tokens lives: a working day. The app asks for a new one when the
 * server refuses it (api/http.ts), so the limit costs a person nothing, while a token copied out
 * of a tab stops by itself even if the session is never signed out.
 */
export const APP_TOKEN_TTL_SECONDS = 12 * 3600;

/**
 * The web app's session (issue #47): the browser session the log-in and sign-up pages start
 * (`doable_session`: random, HttpOnly, so no script reads it, SameSite=Lax, 30 days) is what keeps
 * a person signed in across tabs and restarts; the app keeps no token of its own. Each load asks
 * `POST /auth/app/token` for a short-lived bearer token bound to that session, held in the tab's
 * memory only, and `POST /auth/app/sign-out` ends the session, which revokes every token issued to
 * it (SessionService) on every gateway before it answers.
 *
 * Both change state with a cookie, so both are held to this origin (CSRF): the request must name
 * our Origin (every browser sends one on a POST, and another site cannot forge it) and be JSON (a
 * cross-site form cannot send that type, and a cross-site script would need a CORS preflight with
 * credentials, which the gateway never grants: it answers `Access-Control-Allow-Credentials:
 * false`). SameSite=Lax alone already keeps the cookie off cross-site POSTs; Strict would add
 * nothing here and would sign a person out of the account pages each time they follow a mailed
 * link (those pages share the cookie), so the pages' Lax stays.
 */
@Injectable()
export class AppSessionEndpoints {
  constructor(
    private readonly sessions: SessionService,
    private readonly apps: OAuthAppService,
    private readonly oauth: OAuthService,
  ) {}

  /** `POST /auth/app/token`: `{access_token, token_type, expires_in, user_id}`, or 401 `no_session`. */
  async token(web: WebExchange): Promise<EdgeReply> {
    const refused = this.crossOrigin(web);
    if (refused) return refused;
    const sessionId = web.cookies[SESSION_COOKIE];
    const user = await this.sessions.find(sessionId);
    if (!user || !sessionId) return web.json(401, { error: 'no_session', error_description: 'Not signed in' });
    const app = await this.apps.findByClientId(WEB_APP_CLIENT_ID);
    const token = app ? await this.oauth.issueSessionToken(app, user.userId, WEB_APP_SCOPES, hashToken(sessionId), APP_TOKEN_TTL_SECONDS) : undefined;
    if (!token) return web.json(403, { error: 'invalid_application_status', error_description: 'The web app may not sign in now' });
    return web.json(200, { access_token: token, token_type: 'Bearer', expires_in: APP_TOKEN_TTL_SECONDS, user_id: user.userId });
  }

  /** `POST /auth/app/sign-out`: ends the session and its tokens (answered once no gateway takes them); signed out already is no error. */
  async signOut(web: WebExchange): Promise<EdgeReply> {
    const refused = this.crossOrigin(web);
    if (refused) return refused;
    await this.sessions.end(web.cookies[SESSION_COOKIE]);
    web.clearCookie(SESSION_COOKIE);
    return web.json(200, { signed_out: true });
  }

  private crossOrigin(web: WebExchange): EdgeReply | undefined {
    const json = (web.header('content-type') ?? '').toLowerCase().startsWith('application/json');
    if (web.header('origin') === web.origin && json) return undefined;
    return web.json(403, { error: 'cross_origin', error_description: 'Only the web app on this site may ask this (a JSON POST naming this Origin)' });
  }
}
