import type { EdgeRequest } from '@doable/contracts-common';
import { createLogger } from '@doable/shared-logging';
import type { Database } from '@doable/shared-runtime';
import { DomainError } from '@doable/shared-errors';
import type { ServiceClient } from '@doable/shared-transport';
import { AccountLinkRepository } from '../src/account-links/account-link.repository';
import type { LinkSettings } from '../src/account-links/link-settings';
import { AccountService } from '../src/accounts/account.service';
import { CommandLogRepository } from '../src/accounts/command-log.repository';
import { AddressConfirmationPages, EmailChangePages } from '../src/email-change/email-change.pages';
import { AddressConfirmationService } from '../src/address-confirmation/address-confirmation.service';
import { SsoAccountProof } from '../src/sso/sso-account-proof';
import { EmailChangeService } from '../src/email-change/email-change.service';
import { AppSecretBox } from '../src/secrets/app-secret-box';
import { ClientResolver } from '../src/oauth/client-resolver';
import { LegacyLogin } from '../src/oauth/legacy-login';
import { OAuthAppService } from '../src/oauth/oauth-app.service';
import { OAuthEndpoints } from '../src/oauth/oauth-endpoints';
import { OAuthService } from '../src/oauth/oauth.service';
import { PasswordResetPages } from '../src/password-reset/password-reset.pages';
import { InvitationDeclinePages } from '../src/invitations/invitation-decline.pages';
import { PasswordResetService } from '../src/password-reset/password-reset.service';
import { AuthEdgeRpcController } from '../src/rpc/auth-edge.rpc-controller';
import { SessionService } from '../src/sessions/session.service';
import { AppSessionEndpoints } from '../src/sessions/app-session.endpoints';
import { OidcClient } from '../src/sso/oidc-client';
import { SsoAccounts } from '../src/sso/sso-accounts';
import type { SsoProvider } from '../src/sso/sso-config';
import { SsoLogins } from '../src/sso/sso-logins';
import { SsoPages } from '../src/web/sso-pages';
import { PendingLogin } from '../src/two-factor/pending-login';
import { TwoFactorPages } from '../src/web/two-factor-pages';
import { TwoFactorService } from '../src/two-factor/two-factor.service';
import { AuthorizePages } from '../src/web/authorize-pages';
import { AccountPages } from '../src/web/account-pages';
import { AppWebhookEndpoints } from '../src/webhooks/app-webhook.endpoints';
import { AppWebhookRepository } from '../src/webhooks/app-webhook.repository';
import { AppWebhookService } from '../src/webhooks/app-webhook.service';

export interface AuthEdgeOptions {
  /** Mailed links' base and lifetimes (password reset, address change). */
  readonly links?: Partial<LinkSettings>;
  readonly ssoProviders?: readonly SsoProvider[];
  /** PUBLIC_URL as the web app's redirect URL takes it (null: the request's origin). */
  readonly webAppOrigin?: string | null;
  /** The other services as auth-oauth calls them (the decline page asks sync); by default none answers. */
  readonly services?: ServiceClient;
}

/** No other service runs beside the fixture: every request finds none (as a cluster with sync down). */
const NO_SERVICES = { request: () => Promise.reject(new DomainError('SERVICE_UNAVAILABLE')) } as unknown as ServiceClient;

/**
 * auth-oauth's edge as the module wires it (every page feature: accounts, consent, OAuth, the
 * first-generation log-in, webhooks, two-factor, password reset, address change, single sign-on),
 * over one database, for the integration specs: one place to add a feature's constructor
 * argument instead of one per spec. Answers the parts the specs poke at too.
 */
export function authEdgeFixture(db: Database, options: AuthEdgeOptions = {}) {
  const ssoProviders = options.ssoProviders ?? [];
  const links: LinkSettings = { publicUrl: 'http://localhost:8080', passwordResetTtlSeconds: 3600, emailChangeTtlSeconds: 3600, ...options.links };
  const box = new AppSecretBox(db, '');
  const emailChanges = new EmailChangeService(db, new AccountLinkRepository(), links, ssoProviders);
  const accounts = new AccountService(db, new CommandLogRepository(), undefined, emailChanges);
  const confirmations = new AddressConfirmationService(db, new AccountLinkRepository(), links);
  const apps = new OAuthAppService(db, box);
  const oauth = new OAuthService(db, apps);
  const sessions = new SessionService(db);
  const webhooks = new AppWebhookService(db, new AppWebhookRepository(), box, { allowHttp: false, allowPrivate: false });
  const twoFactor = new TwoFactorService(db, box);
  const pending = new PendingLogin(box);
  const pages = new AccountPages(accounts, sessions, apps, oauth, webhooks, twoFactor, pending, confirmations, ssoProviders);
  const proof = new SsoAccountProof(db, new AccountLinkRepository(), links, ssoProviders);
  const sso = new SsoPages(ssoProviders, new OidcClient(), new SsoLogins(db), new SsoAccounts(db, accounts), pages, createLogger('auth-oauth', 'silent'), proof);
  const legacyLogin = new LegacyLogin(accounts, apps, oauth, twoFactor, ssoProviders);
  const edge = new AuthEdgeRpcController(
    pages,
    new AuthorizePages(apps, new ClientResolver(apps, { allowPrivate: true }), oauth, pages, twoFactor, options.webAppOrigin ?? null),
    new OAuthEndpoints(apps, oauth),
    legacyLogin,
    new AppWebhookEndpoints(apps, webhooks),
    new TwoFactorPages(pages, twoFactor, pending),
    new PasswordResetPages(new PasswordResetService(db, new AccountLinkRepository(), links), pages),
    new EmailChangePages(emailChanges, pages, oauth),
    sso,
    new AddressConfirmationPages(confirmations, pages),
    new AppSessionEndpoints(sessions, apps, oauth),
    new InvitationDeclinePages(options.services ?? NO_SERVICES, pages),
  );
  return { edge, accounts, apps, oauth, sessions, webhooks, twoFactor, pages, sso, legacyLogin, box, emailChanges, confirmations, proof };
}

/** The CSRF value the fixture's page requests carry as a cookie (a form post carries it as a field too). */
export const TEST_CSRF = 'c'.repeat(32);

export interface PageRequestOptions {
  readonly query?: Record<string, string>;
  readonly body?: Record<string, string> | null;
  readonly cookies?: Record<string, string>;
  readonly headers?: Record<string, string>;
  readonly dialect?: EdgeRequest['dialect'];
  readonly origin?: string;
}

/** A request to auth-oauth's pages as the gateway hands it on, with the CSRF cookie a browser that loaded a form has. */
export function pageRequest(method: EdgeRequest['method'], path: string, options: PageRequestOptions = {}): EdgeRequest {
  const cookies = { doable_csrf: TEST_CSRF, ...options.cookies };
  return {
    dialect: options.dialect ?? 'sync-api-v1',
    method,
    path,
    params: {},
    query: options.query ?? {},
    body: options.body ?? null,
    principal: null,
    requestId: null,
    headers: { cookie: Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; '), ...options.headers },
    origin: options.origin ?? 'http://localhost:8080',
  };
}
