import type { EdgeReply } from '@doable/contracts-common';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccountService } from '../accounts/account.service';
import type { WebExchange } from '../exchange/web-exchange';
import { TwoFactorService } from '../two-factor/two-factor.service';
import { OAuthAppService } from './oauth-app.service';
import { OAuthService } from './oauth.service';
import { passwordForbiddenBy, type SsoProvider } from '../sso/sso-config';
import { SSO_PROVIDERS } from '../sso/sso-providers.token';

/** Email addresses and passwords longer than any real one are refused before any hashing. */
const MAX_EMAIL = 254;
const MAX_PASSWORD = 1024;

/**
 * The first generation's `/API/login` (email, password): it answered the user object with its
 * `api_token`. Personal tokens are stored hashed, so that token cannot be given back; instead a
 * NEW access token is issued to the user's built-in "First-generation login" application, with
 * every scope a personal token holds, visible and revocable among the user's authorized apps.
 * Each log-in issues another token (a client on two devices keeps both working). A wrong email
 * or password answers `"LOGIN_ERROR"` (401), the help text's refusal; the password and the token
 * are never logged (the logger redacts both names, and nothing here logs the exchange).
 */
@Injectable()
export class LegacyLogin {
  constructor(
    private readonly accounts: AccountService,
    private readonly apps: OAuthAppService,
    private readonly oauth: OAuthService,
    private readonly twoFactor: TwoFactorService,
    @Optional() @Inject(SSO_PROVIDERS) private readonly ssoProviders: readonly SsoProvider[] = [],
  ) {}

  async login(web: WebExchange): Promise<EdgeReply> {
    const email = web.field('email') ?? web.query('email');
    const password = web.field('password') ?? web.query('password');
    if (!email || !password || email.length > MAX_EMAIL || password.length > MAX_PASSWORD) return this.refused(web, 400);
    // The domain's accounts must sign in with single sign-on, which this log-in cannot do.
    if (passwordForbiddenBy(this.ssoProviders, email)) return this.refused(web, 403);
    const account = await this.accounts.authenticate(email, password);
    if (!account) return this.refused(web, 401);
    // The call has no field for a second factor (public-api-facts §1.8: email and password only):
    // an enrolled account is refused with its own code, never given a token on the password alone.
    if (await this.twoFactor.isEnabled(account.userId)) return web.json(401, 'TWO_FACTOR_REQUIRED', { 'X-Content-Type-Options': 'nosniff' });
    const token = await this.oauth.issueLegacyLoginToken(await this.apps.legacyLoginApp(account.userId), account.userId);
    // The application is suspended or at its token limit: the operator's decision, answered as a refused log-in.
    if (token === undefined) return this.refused(web, 403);
    const summary = await this.accounts.summary(account.userId);
    return web.json(
      200,
      {
        id: Number(account.userId),
        email: summary?.email ?? email,
        full_name: summary?.fullName ?? '',
        timezone: summary?.timezone ?? 'UTC',
        api_token: token,
        token,
      },
      { 'X-Content-Type-Options': 'nosniff' },
    );
  }

  private refused(web: WebExchange, status: number): EdgeReply {
    return web.json(status, 'LOGIN_ERROR', { 'X-Content-Type-Options': 'nosniff' });
  }
}
