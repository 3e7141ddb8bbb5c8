import { type EdgeReply, isStorableText } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccountService } from '../accounts/account.service';
import { SESSION_COOKIE, type WebExchange } from '../exchange/web-exchange';
import { OAuthAppService, isValidRedirectUri, MAX_REDIRECT_URIS } from '../oauth/oauth-app.service';
import { OAuthService } from '../oauth/oauth.service';
import { isPlausibleEmail, passwordProblem } from '../passwords/password-policy';
import { SESSION_TTL_SECONDS, SessionService, type SessionUser } from '../sessions/session.service';
import { PendingLogin } from '../two-factor/pending-login';
import { TwoFactorService } from '../two-factor/two-factor.service';
import type { OAuthApp } from '../oauth/oauth-app.service';
import { settingsOf } from '../webhooks/app-webhook.endpoints';
import { AppWebhookService } from '../webhooks/app-webhook.service';
import { type AppsPageOptions, appsPage, ERROR_MESSAGES, formError, loginPage, messagePage, settingsPage, signupPage, type WebhookForm } from './pages';
import { safeNext } from './safe-next';
import { signupInvitationOf } from './signup-invitation';
import { DEFAULT_TIMEZONE, signupTimezone } from './signup-timezone';
import { passwordForbiddenBy, type SsoProvider } from '../sso/sso-config';
import { SSO_PROVIDERS } from '../sso/sso-providers.token';
import { ssoButtons } from './sso-views';
import { AddressConfirmationService } from '../address-confirmation/address-confirmation.service';

const HOME = '/auth/settings';

/** Sign-up, log-in, log-out, the settings page and the application console. */
@Injectable()
export class AccountPages {
  constructor(
    private readonly accounts: AccountService,
    private readonly sessions: SessionService,
    private readonly apps: OAuthAppService,
    private readonly oauth: OAuthService,
    private readonly webhooks: AppWebhookService,
    private readonly twoFactor: TwoFactorService,
    private readonly pendingLogin: PendingLogin,
    private readonly confirmations: AddressConfirmationService,
    @Optional() @Inject(SSO_PROVIDERS) private readonly ssoProviders: readonly SsoProvider[] = [],
  ) {}

  /** The logged-in user, if the session cookie names a live session. */
  currentUser(web: WebExchange): Promise<SessionUser | undefined> {
    return this.sessions.find(web.cookies[SESSION_COOKIE]);
  }

  /** Answers when the form's CSRF token does not match: the page is re-sent rather than acted on. */
  csrfRejected(web: WebExchange): EdgeReply {
    return web.html(403, messagePage('Form expired', 'This form has expired or did not come from this site. Go back, reload the page and try again.'));
  }

  loginRedirect(web: WebExchange, next: string): EdgeReply {
    return web.redirect(`/auth/login?next=${encodeURIComponent(next)}`);
  }

  /** The sign-up form again, with what was typed (never the password) and the error. */
  signupRefused(web: WebExchange, tag: string, status = 400): EdgeReply {
    const text = (value: string | undefined) => (value !== undefined && isStorableText(value) ? value : undefined);
    const invitation = signupInvitationOf(web.field('invitation_id'), web.field('invitation_secret'), web.field('invitation_kind'));
    return web.html(status, signupPage({ csrf: web.csrf(), next: text(web.field('next')), email: text(web.field('email')), fullName: text(web.field('full_name')), error: formError(tag), invitation, timezone: signupTimezone(web.field('timezone')) }));
  }

  /** The log-in form again, with the email typed (never the password) and the error. */
  loginRefused(web: WebExchange, tag: string, status = 400): EdgeReply {
    const text = (value: string | undefined) => (value !== undefined && isStorableText(value) ? value : undefined);
    const next = text(web.field('next'));
    return web.html(status, loginPage({ csrf: web.csrf(), next, email: text(web.field('email')), error: formError(tag), sso: ssoButtons(this.ssoProviders, next) }));
  }

  /** Any other page or form given text that cannot be stored. */
  invalidText(web: WebExchange): EdgeReply {
    return web.html(400, messagePage('Invalid characters', ERROR_MESSAGES['INVALID_TEXT']));
  }

  signupForm(web: WebExchange): EdgeReply {
    const invitation = signupInvitationOf(web.query('invitation_id'), web.query('invitation_secret'), web.query('invitation_kind'));
    const email = web.query('email');
    return web.html(200, signupPage({ csrf: web.csrf(), next: web.query('next'), invitation, email: invitation && email !== undefined && isStorableText(email) ? email : undefined, timezone: signupTimezone(web.query('timezone')) }));
  }

  async signup(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.csrfRejected(web);
    const email = (web.field('email') ?? '').trim().toLowerCase();
    const fullName = (web.field('full_name') ?? '').trim();
    const password = web.field('password') ?? '';
    const next = web.field('next');
    const again = (tag: string, status = 400) => this.signupRefused(web, tag, status);
    if (!isPlausibleEmail(email)) return again('INVALID_EMAIL');
    // A domain whose accounts must use single sign-on gets no password account either.
    if (passwordForbiddenBy(this.ssoProviders, email)) return again('PASSWORD_LOGIN_DISABLED', 403);
    if (fullName.length === 0 || fullName.length > 255) return again('NAME_REQUIRED');
    const problem = passwordProblem(password, email);
    if (problem) return again(problem);
    let created: { userId: string; token: string };
    try {
      const invitation = signupInvitationOf(web.field('invitation_id'), web.field('invitation_secret'), web.field('invitation_kind'));
      // Unproven until the mailed link is used (issue #44); the mail is queued with the account, or neither is.
      created = await this.accounts.create({ email, fullName, password, timezone: signupTimezone(web.field('timezone')) ?? DEFAULT_TIMEZONE, ...(invitation ? { invitation } : {}) }, (tx, userId) =>
        this.confirmations.issue(tx, { userId, email, fullName }).then(() => undefined),
      );
    } catch (err) {
      if (err instanceof DomainError && err.code === 'EMAIL_ALREADY_EXISTS') return again('ALREADY_REGISTERED', 409);
      throw err;
    }
    await this.logIn(web, created.userId);
    if (next) return web.redirect(safeNext(next, HOME));
    return web.html(201, settingsPage({ csrf: web.csrf(), email, fullName, newToken: created.token, notice: `We sent a link to ${email}: follow it to confirm your address.` }));
  }

  async loginForm(web: WebExchange): Promise<EdgeReply> {
    const next = web.query('next');
    if (await this.currentUser(web)) return web.redirect(safeNext(next, HOME));
    return web.html(200, loginPage({ csrf: web.csrf(), next, sso: ssoButtons(this.ssoProviders, next), timezone: signupTimezone(web.query('timezone')) }));
  }

  async login(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.csrfRejected(web);
    const email = (web.field('email') ?? '').trim();
    const next = web.field('next');
    if (passwordForbiddenBy(this.ssoProviders, email)) return this.loginRefused(web, 'PASSWORD_LOGIN_DISABLED', 403);
    const account = email ? await this.accounts.authenticate(email, web.field('password') ?? '') : undefined;
    if (!account) return this.loginRefused(web, 'AUTHENTICATION_ERROR', 401);
    return this.firstFactorPassed(web, account.userId, next);
  }

  /**
   * Where every first factor ends, a right password or a single sign-on: an account enrolled in
   * two-factor log-in gets no session yet, only the sealed cookie the code step takes, and is sent
   * to that step; any other account gets its session. Either way on to `next` (made safe).
   */
  async firstFactorPassed(web: WebExchange, userId: string, next: string | undefined): Promise<EdgeReply> {
    if (await this.twoFactor.isEnabled(userId)) {
      await this.pendingLogin.begin(web, userId);
      return web.redirect(next ? `/auth/login/two-factor?next=${encodeURIComponent(next)}` : '/auth/login/two-factor');
    }
    await this.logIn(web, userId);
    return web.redirect(safeNext(next, HOME));
  }

  async logout(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.csrfRejected(web);
    await this.sessions.end(web.cookies[SESSION_COOKIE]);
    web.clearCookie(SESSION_COOKIE);
    return web.redirect('/auth/login');
  }

  async settings(web: WebExchange): Promise<EdgeReply> {
    const user = await this.currentUser(web);
    if (!user) return this.loginRedirect(web, '/auth/settings');
    return web.html(200, settingsPage({ csrf: web.csrf(), email: user.email, fullName: user.fullName, authorized: await this.oauth.authorizedApps(user.userId) }));
  }

  /** Takes an application's access back: all its tokens of this user stop at once on every gateway. */
  async revokeAppAccess(web: WebExchange): Promise<EdgeReply> {
    const user = await this.currentUser(web);
    if (!user) return this.loginRedirect(web, '/auth/settings');
    if (!web.csrfValid()) return this.csrfRejected(web);
    const revoked = await this.oauth.revokeAppForUser(user.userId, web.field('app_id') ?? '');
    if (revoked === 0) return web.html(404, messagePage('Application not found', 'No application with access to your account has this id.'));
    const authorized = await this.oauth.authorizedApps(user.userId);
    return web.html(200, settingsPage({ csrf: web.csrf(), email: user.email, fullName: user.fullName, authorized, notice: 'Access revoked: the application can no longer use your account.' }));
  }

  /** Replaces the personal token; the old one stops at once on every gateway (token-revoked event). */
  async resetToken(web: WebExchange): Promise<EdgeReply> {
    const user = await this.currentUser(web);
    if (!user) return this.loginRedirect(web, '/auth/settings');
    if (!web.csrfValid()) return this.csrfRejected(web);
    const { token } = await this.accounts.resetPersonalToken(user.email);
    return web.html(200, settingsPage({ csrf: web.csrf(), email: user.email, fullName: user.fullName, newToken: token, authorized: await this.oauth.authorizedApps(user.userId) }));
  }

  async appConsole(web: WebExchange): Promise<EdgeReply> {
    const user = await this.currentUser(web);
    if (!user) return this.loginRedirect(web, '/auth/apps');
    return web.html(200, await this.console(web, user.userId));
  }

  async registerApp(web: WebExchange): Promise<EdgeReply> {
    const user = await this.currentUser(web);
    if (!user) return this.loginRedirect(web, '/auth/apps');
    if (!web.csrfValid()) return this.csrfRejected(web);
    const name = (web.field('name') ?? '').trim();
    const rawUris = web.field('redirect_uris') ?? '';
    const redirectUris = [...new Set(rawUris.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0))];
    const again = async (tag: string) =>
      web.html(400, await this.console(web, user.userId, { error: formError(tag), name, redirectUris: rawUris }));
    if (name.length === 0 || name.length > 100) return again('APP_NAME_REQUIRED');
    if (redirectUris.length > MAX_REDIRECT_URIS || !redirectUris.every(isValidRedirectUri)) return again('INVALID_REDIRECT_URI');
    const { app, clientSecret } = await this.apps.create(user.userId, name, redirectUris);
    return web.html(201, await this.console(web, user.userId, { revealed: { appId: app.id, clientSecret } }));
  }

  async rotateSecret(web: WebExchange): Promise<EdgeReply> {
    const user = await this.currentUser(web);
    if (!user) return this.loginRedirect(web, '/auth/apps');
    if (!web.csrfValid()) return this.csrfRejected(web);
    const rotated = await this.apps.rotateSecret(user.userId, web.field('app_id') ?? '');
    if (!rotated) return web.html(404, messagePage('Application not found', 'There is no such application among yours.'));
    return web.html(200, await this.console(web, user.userId, { revealed: { appId: rotated.app.id, clientSecret: rotated.clientSecret } }));
  }

  /**
   * The console's webhook form of one app: saves it (`action=save`: callback URL, events,
   * version, checked as the API checks them, the URL under the same address policy) or removes
   * it (`action=remove`). A refusal shows the form again, as typed, with the coded error.
   */
  async configureWebhook(web: WebExchange): Promise<EdgeReply> {
    const user = await this.currentUser(web);
    if (!user) return this.loginRedirect(web, '/auth/apps');
    if (!web.csrfValid()) return this.csrfRejected(web);
    const apps = await this.apps.listForOwner(user.userId);
    const app = apps.find((candidate) => candidate.id === web.field('app_id'));
    if (!app) return web.html(404, messagePage('Application not found', 'There is no such application among yours.'));
    const body = web.request.body as Record<string, unknown>;
    const events = ([] as unknown[]).concat(body['events'] ?? []).filter((name): name is string => typeof name === 'string');
    const typed: WebhookForm = { appId: app.id, callbackUrl: web.field('callback_url') ?? '', events };
    if (!isStorableText(typed.callbackUrl) || !events.every(isStorableText)) return this.invalidText(web);
    try {
      if (web.field('action') === 'remove') await this.webhooks.configure(app, null);
      else await this.webhooks.configure(app, settingsOf({ callback_url: typed.callbackUrl.trim(), events, version: web.field('version') ?? '1' }));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const status = err.code === 'WEBHOOK_SECRET_UNAVAILABLE' ? 409 : 400;
      return web.html(status, await this.console(web, user.userId, { webhookForm: { ...typed, error: { tag: err.code, message: err.message } } }, apps));
    }
    return web.html(200, await this.console(web, user.userId, { notice: { appId: app.id, message: web.field('action') === 'remove' ? 'Webhook removed.' : 'Webhook saved.' } }, apps));
  }

  /** The console page of an owner's apps, each with its webhook. */
  private async console(web: WebExchange, ownerId: string, options: Omit<AppsPageOptions, 'csrf' | 'apps' | 'webhooks'> = {}, listed?: readonly OAuthApp[]): Promise<string> {
    const apps = listed ?? (await this.apps.listForOwner(ownerId));
    return appsPage({ csrf: web.csrf(), apps, webhooks: await this.webhooks.forApps(apps), ...options });
  }

  /**
   * The account's second factor was turned on or off from this session: every other session and
   * every token ends (as with a new password), for none of them proved the factor now in force;
   * this session stays (it just did). Also what keeps a session from before enrolment from taking
   * the web app's token without a code.
   */
  async secondFactorChanged(web: WebExchange, userId: string): Promise<void> {
    await this.sessions.endAllExcept(userId, web.cookies[SESSION_COOKIE]);
    await this.accounts.revokeEveryToken(userId);
  }

  /** Starts a session for a user whose every factor was checked (the two-factor step calls it). */
  startSession(web: WebExchange, userId: string): Promise<void> {
    return this.logIn(web, userId);
  }

  /** A new session for the user, once every factor it has was checked. */
  private async logIn(web: WebExchange, userId: string): Promise<void> {
    const previous = web.cookies[SESSION_COOKIE];
    if (previous) await this.sessions.end(previous);
    web.setCookie(SESSION_COOKIE, await this.sessions.start(userId), SESSION_TTL_SECONDS);
  }
}
