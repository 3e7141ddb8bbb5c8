import type { EdgeReply } from '@doable/contracts-common';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AuthorizationResponseError } from 'openid-client';
import type { WebExchange } from '../exchange/web-exchange';
import { AccountPages } from './account-pages';
import { safeNext } from './safe-next';
import { SsoAccounts } from '../sso/sso-accounts';
import type { SsoProvider } from '../sso/sso-config';
import { SSO_PROVIDERS } from '../sso/sso-providers.token';
import { OidcClient, ProviderUnavailable } from '../sso/oidc-client';
import { SSO_LOGIN_TTL_SECONDS, SsoLogins } from '../sso/sso-logins';
import { SsoAccountProof } from '../sso/sso-account-proof';
import { ssoLinkConfirmPage, ssoLinkedPage, ssoProofPage, ssoRefusedPage, SSO_MESSAGES } from './sso-views';
import { NO_BARRIER, REVOCATION_BARRIER, type RevocationBarrier } from '../tokens/revocation-barrier';

/** The browser's handle on its pending sign-in (sso-logins.ts): HttpOnly, SameSite=Lax, minutes. */
export const SSO_COOKIE = 'doable_sso';
export const SSO_CALLBACK_PATH = '/auth/sso/callback';
/** The browser's handle on a sign-in waiting for proof that an unverified account is the person's (sso-account-proof.ts). */
export const SSO_LINK_COOKIE = 'doable_sso_link';

/**
 * Single sign-on's two routes: the redirect to a provider (GET /auth/sso/start?provider=&next=)
 * and its callback. The callback ends as a password log-in does: a new session cookie, then the
 * `next` the log-in page was given (the OAuth authorize flow continues where it was).
 */
@Injectable()
export class SsoPages {
  constructor(
    @Inject(SSO_PROVIDERS) private readonly providers: readonly SsoProvider[],
    private readonly oidc: OidcClient,
    private readonly logins: SsoLogins,
    private readonly accounts: SsoAccounts,
    private readonly pages: AccountPages,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly proof: SsoAccountProof,
    @Optional() @Inject(REVOCATION_BARRIER) private readonly barrier: RevocationBarrier = NO_BARRIER,
  ) {}

  async start(web: WebExchange): Promise<EdgeReply> {
    const provider = this.providers.find((candidate) => candidate.id === web.query('provider'));
    if (!provider) return this.refused(web, 404, 'SSO_PROVIDER_NOT_FOUND');
    const next = web.query('next');
    // The callback is on the host the person used; the provider accepts it only if registered.
    const redirectUri = `${web.origin}${SSO_CALLBACK_PATH}`;
    let started: Awaited<ReturnType<OidcClient['authorizationUrl']>>;
    try {
      started = await this.oidc.authorizationUrl(provider, redirectUri);
    } catch (err) {
      return this.failed(web, provider, err);
    }
    const id = await this.logins.begin({ providerId: provider.id, redirectUri, next: next && safeNext(next, '') ? next : undefined, ...started.checks });
    web.setCookie(SSO_COOKIE, id, SSO_LOGIN_TTL_SECONDS);
    return web.redirect(started.url.href);
  }

  async callback(web: WebExchange): Promise<EdgeReply> {
    const pending = await this.logins.take(web.cookies[SSO_COOKIE]);
    web.clearCookie(SSO_COOKIE);
    const provider = pending && this.providers.find((candidate) => candidate.id === pending.providerId);
    if (!pending || !provider) return this.refused(web, 400, 'SSO_EXPIRED');
    const callbackUrl = new URL(pending.redirectUri);
    for (const [name, value] of Object.entries(web.request.query)) {
      // A repeated or structured parameter is not an authorization response (RFC 6749 §3.1).
      if (typeof value !== 'string') return this.refused(web, 400, 'SSO_FAILED');
      callbackUrl.searchParams.append(name, value);
    }
    let claims;
    try {
      claims = await this.oidc.callback(provider, callbackUrl, pending);
    } catch (err) {
      return this.failed(web, provider, err);
    }
    const outcome = await this.accounts.signIn(provider, claims);
    if ('proofNeeded' in outcome) {
      this.logger.info({ provider: provider.id, userId: outcome.proofNeeded.userId }, 'single sign-on waits for proof of an unverified account');
      const handle = await this.proof.begin({ providerId: provider.id, issuer: claims.issuer, subject: claims.subject }, outcome.proofNeeded.userId);
      web.setCookie(SSO_LINK_COOKIE, handle, SSO_LOGIN_TTL_SECONDS);
      return web.html(409, ssoProofPage({ csrf: web.csrf(), email: outcome.proofNeeded.email, next: pending.next }));
    }
    if ('refused' in outcome) {
      this.logger.info({ provider: provider.id, refused: outcome.refused }, 'single sign-on refused');
      return this.refused(web, 403, outcome.refused);
    }
    if (outcome.how !== 'identity') this.logger.info({ provider: provider.id, userId: outcome.userId, how: outcome.how }, 'single sign-on linked an account');
    // The provider's sign-in is a first factor: an account enrolled in Doable's two-factor log-in still gives its code.
    return this.pages.firstFactorPassed(web, outcome.userId, pending.next);
  }

  /** The proof page's password form: the right password links the account and signs in as a password log-in would. */
  async linkWithPassword(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const handle = web.cookies[SSO_LINK_COOKIE];
    const next = web.field('next');
    const outcome = await this.proof.withPassword(handle, web.field('password') ?? '');
    if ('userId' in outcome) {
      web.clearCookie(SSO_LINK_COOKIE);
      this.logger.info({ userId: outcome.userId, how: 'password' }, 'single sign-on linked an unverified account');
      return this.pages.firstFactorPassed(web, outcome.userId, next && safeNext(next, '') ? next : undefined);
    }
    const email = outcome.tag === 'AUTHENTICATION_ERROR' ? await this.proof.pendingOf(handle) : undefined;
    if (email === undefined) return this.refused(web, outcome.tag === 'ALREADY_LINKED' ? 403 : 400, outcome.tag === 'AUTHENTICATION_ERROR' ? 'SSO_EXPIRED' : outcome.tag);
    return web.html(401, ssoProofPage({ csrf: web.csrf(), email, next, error: { tag: outcome.tag, message: SSO_MESSAGES[outcome.tag] } }));
  }

  /** The proof page's mail button. */
  async linkByMail(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const handle = web.cookies[SSO_LINK_COOKIE];
    const outcome = await this.proof.mail(handle);
    if (!outcome.sent) return this.refused(web, outcome.tag === 'RATE_LIMITED' ? 429 : 400, outcome.tag);
    return web.html(200, ssoProofPage({ csrf: web.csrf(), email: outcome.email, next: web.field('next'), notice: `We sent a confirmation link to ${outcome.email}. Follow it to link your sign-in.` }));
  }

  /** The mailed link's page asks before it changes anything (mail scanners open links). */
  async linkConfirmForm(web: WebExchange): Promise<EdgeReply> {
    const token = web.query('token') ?? '';
    const email = await this.proof.pendingOf(token, 'sso-link-mail');
    if (email === undefined) return this.refused(web, 400, 'RESET_LINK_INVALID');
    return web.html(200, ssoLinkConfirmPage({ csrf: web.csrf(), token, email }));
  }

  async linkConfirm(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const token = web.field('token') ?? '';
    const email = await this.proof.pendingOf(token, 'sso-link-mail');
    const outcome = await this.proof.confirmMail(token);
    if (!('userId' in outcome) || email === undefined) return this.refused(web, 'tag' in outcome && outcome.tag === 'ALREADY_LINKED' ? 403 : 400, 'tag' in outcome ? outcome.tag : 'RESET_LINK_INVALID');
    this.logger.info({ userId: outcome.userId, how: 'mail' }, 'single sign-on linked an unverified account; its other credentials ended');
    // The old credentials' tokens are refused by every gateway before the page says it is done (bounded; caches forget them anyway).
    await this.barrier.revoked(outcome.revoked ?? []).catch(() => undefined);
    return web.html(200, ssoLinkedPage(email));
  }

  /** What went wrong with the provider, logged by kind (never the code, tokens or the secret). */
  private failed(web: WebExchange, provider: SsoProvider, err: unknown): EdgeReply {
    if (err instanceof ProviderUnavailable) {
      this.logger.warn({ provider: provider.id, reason: err.message }, 'single sign-on provider unavailable');
      return this.refused(web, 502, 'SSO_UNAVAILABLE');
    }
    if (err instanceof AuthorizationResponseError) {
      // The provider's own answer (access_denied, login_required, ...): its code only.
      this.logger.info({ provider: provider.id, providerError: err.error }, 'single sign-on not completed at the provider');
      return this.refused(web, 403, 'SSO_CANCELLED');
    }
    const failure = err as { name?: string; code?: string; message?: string };
    this.logger.warn({ provider: provider.id, error: failure.name, reason: failure.code ?? failure.message?.slice(0, 200) }, 'single sign-on failed');
    return this.refused(web, 400, 'SSO_FAILED');
  }

  private refused(web: WebExchange, status: number, tag: keyof typeof SSO_MESSAGES): EdgeReply {
    return web.html(status, ssoRefusedPage(tag));
  }
}
