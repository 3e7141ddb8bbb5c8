import { AuthSubjects } from '@doable/contracts-auth';
import { type EdgeReply, type EdgeRequest, findUnstorableText } from '@doable/contracts-common';
import { MCP_PATH, PROTECTED_RESOURCE_METADATA_PATH } from '@doable/contracts-mcp';
import { DomainError } from '@doable/shared-errors';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { AuthorizePages } from '../oauth/authorize-pages';
import { LegacyLogin } from '../oauth/legacy-login';
import { OAuthEndpoints } from '../oauth/oauth-endpoints';
import { AccountPages } from '../web/account-pages';
import { AppWebhookEndpoints } from '../webhooks/app-webhook.endpoints';
import { WebExchange } from '../web/web-exchange';

type Handler = (web: WebExchange) => Promise<EdgeReply> | EdgeReply;

/** The endpoints answering OAuth's JSON `{error}` bodies rather than pages. */
const OAUTH_JSON_PATHS: ReadonlySet<string> = new Set([
  '/oauth/access_token',
  '/oauth/register',
  '/sync/v8/access_tokens/revoke',
  '/sync/v9/access_tokens/revoke',
  '/api/v1/access_tokens/revoke',
  '/api/v1/access_tokens',
  '/api/v1/revoke',
  '/sync/v9/access_tokens/migrate_personal_token',
  '/api/v1/access_tokens/migrate_personal_token',
]);

/**
 * The metadata documents (RFC 8414, RFC 9728): they read no parameter, so whatever a query holds
 * is ignored, as by any static document, and never refused (a refusal here was an HTML page).
 */
const METADATA_PATHS: ReadonlySet<string> = new Set(['/.well-known/oauth-authorization-server', PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`]);

function bodyFields(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Everything the gateway routes to auth-oauth: pages and OAuth endpoints, by method and path. */
@RpcController()
export class AuthEdgeRpcController {
  private readonly handlers: ReadonlyMap<string, Handler>;

  constructor(
    private readonly pages: AccountPages,
    authorize: AuthorizePages,
    oauth: OAuthEndpoints,
    legacyLogin: LegacyLogin,
    webhooks: AppWebhookEndpoints,
  ) {
    this.handlers = new Map<string, Handler>([
      ['GET /auth/signup', (web) => pages.signupForm(web)],
      ['POST /auth/signup', (web) => pages.signup(web)],
      ['GET /auth/login', (web) => pages.loginForm(web)],
      ['POST /auth/login', (web) => pages.login(web)],
      ['POST /auth/logout', (web) => pages.logout(web)],
      ['GET /auth/settings', (web) => pages.settings(web)],
      ['POST /auth/settings/token', (web) => pages.resetToken(web)],
      ['POST /auth/settings/apps/revoke', (web) => pages.revokeAppAccess(web)],
      ['GET /auth/apps', (web) => pages.appConsole(web)],
      ['POST /auth/apps', (web) => pages.registerApp(web)],
      ['POST /auth/apps/secret', (web) => pages.rotateSecret(web)],
      ['POST /auth/apps/webhook', (web) => pages.configureWebhook(web)],
      ['GET /oauth/authorize', (web) => authorize.show(web)],
      ['POST /oauth/authorize', (web) => authorize.decide(web)],
      ['POST /oauth/access_token', (web) => oauth.accessToken(web)],
      // v8: where @doist/todoist-api-typescript 1.x's revokeAuthToken posts (client-constraints §3.1).
      ['POST /sync/v8/access_tokens/revoke', (web) => oauth.revokeWithSecret(web)],
      ['POST /sync/v9/access_tokens/revoke', (web) => oauth.revokeWithSecret(web)],
      ['POST /api/v1/access_tokens/revoke', (web) => oauth.revokeWithSecret(web)],
      ['DELETE /api/v1/access_tokens', (web) => oauth.revokeWithSecret(web)],
      ['POST /api/v1/revoke', (web) => oauth.revokeRfc7009(web)],
      ['POST /sync/v9/access_tokens/migrate_personal_token', (web) => oauth.migratePersonalToken(web)],
      ['POST /api/v1/access_tokens/migrate_personal_token', (web) => oauth.migratePersonalToken(web)],
      ['GET /api/v1/apps/webhook', (web) => webhooks.get(web)],
      ['PUT /api/v1/apps/webhook', (web) => webhooks.put(web)],
      ['DELETE /api/v1/apps/webhook', (web) => webhooks.remove(web)],
      ['GET /.well-known/oauth-authorization-server', (web) => oauth.metadata(web)],
      ['POST /oauth/register', (web) => oauth.register(web)],
      [`GET ${PROTECTED_RESOURCE_METADATA_PATH}`, (web) => oauth.protectedResource(web)],
      [`GET ${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`, (web) => oauth.protectedResource(web)],
      // The first generation's log-in (its clients sent it over GET or POST).
      ['GET /API/login', (web) => legacyLogin.login(web)],
      ['POST /API/login', (web) => legacyLogin.login(web)],
    ]);
  }

  @Handles(AuthSubjects.edge)
  async edge(request: EdgeRequest): Promise<EdgeReply> {
    const web = new WebExchange(request);
    const handler = this.handlers.get(`${web.method} ${web.path}`);
    if (!handler) throw new DomainError('ROUTE_NOT_FOUND', `auth-oauth does not serve ${web.method} ${web.path}`);
    // Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused before any handler
    // reads it: as RFC 6749/7009's invalid_request by the OAuth endpoints, and by the pages
    // with a form error (sign-up and log-in re-render their form).
    const found = METADATA_PATHS.has(web.path) ? undefined : findUnstorableText({ ...request.query, ...request.params, ...bodyFields(request.body) });
    if (found !== undefined) return this.refuseText(web, found.path.split('.')[0]);
    return handler(web);
  }

  private refuseText(web: WebExchange, field: string): EdgeReply | Promise<EdgeReply> {
    const description = `${field} contains a NUL character or an unpaired surrogate`;
    if (OAUTH_JSON_PATHS.has(web.path)) return web.json(400, { error: 'invalid_request', error_description: description });
    // The app API (an application's webhook) answers as the rest of api/v1 does: a Todoist error body.
    if (web.path.startsWith('/api/v1/apps/')) throw new DomainError('INVALID_ARGUMENT_VALUE', description, { argument: field });
    if (web.method === 'POST' && web.path === '/auth/signup') return this.pages.signupRefused(web, 'INVALID_TEXT');
    if (web.method === 'POST' && web.path === '/auth/login') return this.pages.loginRefused(web, 'INVALID_TEXT');
    if (web.path === '/API/login') return web.json(400, 'LOGIN_ERROR');
    return this.pages.invalidText(web);
  }
}
