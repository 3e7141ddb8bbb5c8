import type { EdgeReply, Scope } from '@doable/contracts-common';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { WebExchange } from '../exchange/web-exchange';
import { ClientResolver } from '../oauth/client-resolver';
import { WEB_APP_ORIGIN, webAppRedirectUri } from '../oauth/first-party-client';
import { type OAuthApp, OAuthAppService } from '../oauth/oauth-app.service';
import { parseScopes } from '../oauth/oauth-scopes';
import { OAuthService } from '../oauth/oauth.service';
import { isS256Challenge } from '../oauth/pkce';
import { postedCode } from './two-factor-pages';
import { codeField, twoFactorError } from './two-factor-views';
import { TwoFactorService } from '../two-factor/two-factor.service';
import { AccountPages } from './account-pages';
import { consentPage, type ConsentFields } from './pages';

type Checked =
  | { readonly kind: 'reply'; readonly reply: EdgeReply }
  | { readonly kind: 'ok'; readonly app: OAuthApp; readonly scopes: Scope[]; readonly redirectTo: string; readonly fields: ConsentFields };

/** Sends the browser back to the application with these parameters (and the state, always). */
function backTo(web: WebExchange, redirectTo: string, params: Record<string, string>, state: string): EdgeReply {
  const url = new URL(redirectTo);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  url.searchParams.set('state', state);
  return web.redirect(url.toString());
}

/** `GET /oauth/authorize` (consent page) and `POST /oauth/authorize` (the user's decision). */
@Injectable()
export class AuthorizePages {
  constructor(
    private readonly apps: OAuthAppService,
    private readonly clients: ClientResolver,
    private readonly oauth: OAuthService,
    private readonly pages: AccountPages,
    private readonly twoFactor: TwoFactorService,
    /** PUBLIC_URL when set: the web app's redirect URL is taken from it (oauth/first-party-client.ts). */
    @Optional() @Inject(WEB_APP_ORIGIN) private readonly webAppOrigin: string | null = null,
  ) {}

  async show(web: WebExchange): Promise<EdgeReply> {
    const checked = await this.check(web, (name) => web.query(name));
    if (checked.kind === 'reply') return checked.reply;
    const user = await this.pages.currentUser(web);
    if (!user) return this.pages.loginRedirect(web, this.authorizePath(checked.fields));
    // Doable's own web app: no consent page. The person is signing into Doable itself, not
    // granting a third party anything; their session passed the log-in (and its second factor);
    // and the code can only go to this site's own /app/, where only the app that started this
    // request holds the PKCE verifier (a request started elsewhere yields a code nobody can use).
    if (checked.app.registration === 'first-party') return this.issue(web, checked, user.userId);
    const secondFactor = (await this.twoFactor.isEnabled(user.userId)) ? { field: codeField() } : undefined;
    return web.html(200, consentPage({ csrf: web.csrf(), app: checked.app, scopes: checked.scopes, userEmail: user.email, fields: checked.fields, secondFactor }));
  }

  async decide(web: WebExchange): Promise<EdgeReply> {
    const checked = await this.check(web, (name) => web.field(name));
    if (checked.kind === 'reply') return checked.reply;
    const user = await this.pages.currentUser(web);
    if (!user) return this.pages.loginRedirect(web, this.authorizePath(checked.fields));
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const { app, scopes, redirectTo, fields } = checked;
    if (web.field('decision') !== 'allow') return backTo(web, redirectTo, { error: 'access_denied' }, fields.state);
    // Enrolled: allowing needs a current code (or a recovery code), as a log-in does.
    if (await this.twoFactor.isEnabled(user.userId)) {
      const verdict = await this.twoFactor.verify(user.userId, postedCode(web));
      if (verdict !== 'ok') {
        const error = twoFactorError(verdict === 'locked' ? 'TWO_FACTOR_LOCKED' : 'TWO_FACTOR_CODE_INVALID');
        const page = consentPage({ csrf: web.csrf(), app, scopes, userEmail: user.email, fields, secondFactor: { field: codeField(error), error } });
        return web.html(verdict === 'locked' ? 429 : 401, page);
      }
    }
    return this.issue(web, checked, user.userId);
  }

  private async issue(web: WebExchange, checked: Extract<Checked, { kind: 'ok' }>, userId: string): Promise<EdgeReply> {
    const { app, scopes, redirectTo, fields } = checked;
    // The first-party client has no stored redirect URL for the exchange to fall back on: the code keeps the one it was sent to.
    const redirectUri = fields.redirectUri ?? (app.registration === 'first-party' ? redirectTo : null);
    const code = await this.oauth.issueCode(app, { userId, scopes, redirectUri, codeChallenge: fields.codeChallenge ?? null });
    return backTo(web, redirectTo, { code }, fields.state);
  }

  /**
   * Validates an authorization request. Problems with the client or its redirect URL are shown
   * to the browser as JSON (redirecting there would be an open redirect); every other problem
   * goes back to the application as `error=...` (sync-interface §5.6).
   */
  private async check(web: WebExchange, read: (name: string) => string | undefined): Promise<Checked> {
    const json = (error: string, description: string): Checked => ({ kind: 'reply', reply: web.json(400, { error, error_description: description }) });
    const resolved = await this.clients.resolve(read('client_id'));
    if (!resolved.ok) return json('invalid_client', resolved.reason);
    const app = resolved.app;
    const redirectUris = app.registration === 'first-party' ? [webAppRedirectUri(this.webAppOrigin, web.origin)] : app.redirectUris;
    if (redirectUris.length === 0) return json('invalid_request', 'The application has no redirect URL configured');
    const redirectUri = read('redirect_uri') || undefined;
    if (redirectUri !== undefined && !redirectUris.includes(redirectUri)) return json('redirect_uri_mismatch', 'redirect_uri is not one of the application\'s redirect URLs');
    if (redirectUri === undefined && redirectUris.length > 1) return json('invalid_request', 'redirect_uri is required: the application has several');
    const redirectTo = redirectUri ?? redirectUris[0];
    const state = read('state') ?? '';
    const fail = (error: string): Checked => ({ kind: 'reply', reply: backTo(web, redirectTo, { error }, state) });
    if (state.length === 0 || state.length > 1024) return fail('invalid_request');
    if (await this.apps.isBlocked(app)) return fail('invalid_application_status');
    const scope = read('scope') ?? '';
    const scopes = parseScopes(scope);
    if (!scopes) return fail('invalid_scope');
    const codeChallenge = read('code_challenge') || undefined;
    const codeChallengeMethod = read('code_challenge_method') || undefined;
    if (codeChallenge !== undefined && (codeChallengeMethod !== 'S256' || !isS256Challenge(codeChallenge))) return fail('invalid_request');
    if (codeChallenge === undefined && codeChallengeMethod !== undefined) return fail('invalid_request');
    // A public client has no secret: only the PKCE verifier can tie the code to it.
    if (codeChallenge === undefined && app.registration !== 'console') return fail('invalid_request');
    return { kind: 'ok', app, scopes, redirectTo, fields: { clientId: app.clientId, scope, state, redirectUri, codeChallenge, codeChallengeMethod } };
  }

  private authorizePath(fields: ConsentFields): string {
    const query = new URLSearchParams({ client_id: fields.clientId, scope: fields.scope, state: fields.state });
    if (fields.redirectUri) query.set('redirect_uri', fields.redirectUri);
    if (fields.codeChallenge) query.set('code_challenge', fields.codeChallenge);
    if (fields.codeChallengeMethod) query.set('code_challenge_method', fields.codeChallengeMethod);
    return `/oauth/authorize?${query.toString()}`;
  }
}
