import { AUTH_ENDPOINTS, type AuthEndpoint, type AuthErrorForm, type AuthHandler, AuthSubjects } from '@doable/contracts-auth';
import { type EdgeReply, type EdgeRequest, findUnstorableText } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { AuthorizePages } from '../web/authorize-pages';
import { LegacyLogin } from '../oauth/legacy-login';
import { OAuthEndpoints } from '../oauth/oauth-endpoints';
import { AccountPages } from '../web/account-pages';
import { AppWebhookEndpoints } from '../webhooks/app-webhook.endpoints';
import { WebExchange } from '../exchange/web-exchange';
import { TwoFactorPages } from '../web/two-factor-pages';
import { PasswordResetPages } from '../password-reset/password-reset.pages';
import { AddressConfirmationPages, EmailChangePages } from '../email-change/email-change.pages';
import { SsoPages } from '../web/sso-pages';
import { AppSessionEndpoints } from '../sessions/app-session.endpoints';
import { InvitationDeclinePages } from '../invitations/invitation-decline.pages';

type Handler = (web: WebExchange) => Promise<EdgeReply> | EdgeReply;

/** The routes the gateway sends here, by method and path: the one list it builds its rows from. */
const ENDPOINTS: ReadonlyMap<string, AuthEndpoint<AuthHandler>> = new Map(AUTH_ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint]));

function bodyFields(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Everything the gateway routes to auth-oauth: pages and OAuth endpoints, by method and path. */
@RpcController()
export class AuthEdgeRpcController {
  /** One function per handler the list names: the compiler lists any a new route forgets. */
  private readonly handlers: Readonly<Record<AuthHandler, Handler>>;

  constructor(
    private readonly pages: AccountPages,
    authorize: AuthorizePages,
    oauth: OAuthEndpoints,
    legacyLogin: LegacyLogin,
    webhooks: AppWebhookEndpoints,
    twoFactor: TwoFactorPages,
    resets: PasswordResetPages,
    emailChanges: EmailChangePages,
    sso: SsoPages,
    confirmations: AddressConfirmationPages,
    appSession: AppSessionEndpoints,
    invitationDecline: InvitationDeclinePages,
  ) {
    this.handlers = {
      'signup-form': (web) => pages.signupForm(web),
      signup: (web) => pages.signup(web),
      'login-form': (web) => pages.loginForm(web),
      login: (web) => pages.login(web),
      logout: (web) => pages.logout(web),
      'app-token': (web) => appSession.token(web),
      'app-sign-out': (web) => appSession.signOut(web),
      settings: (web) => pages.settings(web),
      'reset-token': (web) => pages.resetToken(web),
      'revoke-app-access': (web) => pages.revokeAppAccess(web),
      'app-console': (web) => pages.appConsole(web),
      'register-app': (web) => pages.registerApp(web),
      'rotate-secret': (web) => pages.rotateSecret(web),
      'configure-webhook': (web) => pages.configureWebhook(web),
      'forgot-password-form': (web) => resets.forgotForm(web),
      'request-password-reset': (web) => resets.requestReset(web),
      'reset-password-form': (web) => resets.resetForm(web),
      'reset-password': (web) => resets.reset(web),
      'request-email-change': (web) => emailChanges.request(web),
      'confirm-email-form': (web) => emailChanges.confirmForm(web),
      'confirm-email': (web) => emailChanges.confirm(web),
      'sso-start': (web) => sso.start(web),
      'sso-callback': (web) => sso.callback(web),
      'sso-link': (web) => sso.linkWithPassword(web),
      'sso-link-mail': (web) => sso.linkByMail(web),
      'sso-link-confirm-form': (web) => sso.linkConfirmForm(web),
      'sso-link-confirm': (web) => sso.linkConfirm(web),
      'verify-email-form': (web) => confirmations.verifyForm(web),
      'verify-email': (web) => confirmations.verify(web),
      'invitation-decline-form': (web) => invitationDecline.declineForm(web),
      'invitation-decline': (web) => invitationDecline.decline(web),
      'consent-form': (web) => authorize.show(web),
      'consent-decision': (web) => authorize.decide(web),
      'access-token': (web) => oauth.accessToken(web),
      'revoke-with-secret': (web) => oauth.revokeWithSecret(web),
      'revoke-rfc7009': (web) => oauth.revokeRfc7009(web),
      'migrate-personal-token': (web) => oauth.migratePersonalToken(web),
      'app-webhook-get': (web) => webhooks.get(web),
      'app-webhook-put': (web) => webhooks.put(web),
      'app-webhook-delete': (web) => webhooks.remove(web),
      'authorization-server-metadata': (web) => oauth.metadata(web),
      'protected-resource-metadata': (web) => oauth.protectedResource(web),
      'register-client': (web) => oauth.register(web),
      'legacy-login': (web) => legacyLogin.login(web),
      'two-factor-login-form': (web) => twoFactor.loginForm(web),
      'two-factor-login': (web) => twoFactor.login(web),
      'two-factor-settings': (web) => twoFactor.settings(web),
      'two-factor-start': (web) => twoFactor.start(web),
      'two-factor-confirm': (web) => twoFactor.confirm(web),
      'two-factor-disable': (web) => twoFactor.disable(web),
    };
  }

  @Handles(AuthSubjects.edge)
  async edge(request: EdgeRequest): Promise<EdgeReply> {
    const web = new WebExchange(request);
    const endpoint = ENDPOINTS.get(`${web.method} ${web.path}`);
    if (!endpoint) throw new DomainError('ROUTE_NOT_FOUND', `auth-oauth does not serve ${web.method} ${web.path}`);
    // Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused before any handler
    // reads it, in the route's own error form. A static document reads no parameter, so
    // whatever a query holds is ignored there, as by any static document, and never refused.
    if (endpoint.errors !== 'none') {
      const found = findUnstorableText({ ...request.query, ...request.params, ...bodyFields(request.body) });
      if (found !== undefined) return this.refuseText(web, endpoint.handler, endpoint.errors, found.path.split('.')[0]);
    }
    return this.handlers[endpoint.handler](web);
  }

  private refuseText(web: WebExchange, handler: AuthHandler, errors: Exclude<AuthErrorForm, 'none'>, field: string): EdgeReply | Promise<EdgeReply> {
    const description = `${field} contains a NUL character or an unpaired surrogate`;
    switch (errors) {
      case 'oauth-json':
        return web.json(400, { error: 'invalid_request', error_description: description });
      case 'todoist':
        throw new DomainError('INVALID_ARGUMENT_VALUE', description, { argument: field });
      case 'login-error':
        return web.json(400, 'LOGIN_ERROR');
      case 'page':
        // Sign-up and log-in re-render their form with the error; other pages show the error page.
        if (handler === 'signup') return this.pages.signupRefused(web, 'INVALID_TEXT');
        if (handler === 'login') return this.pages.loginRefused(web, 'INVALID_TEXT');
        return this.pages.invalidText(web);
    }
  }
}
