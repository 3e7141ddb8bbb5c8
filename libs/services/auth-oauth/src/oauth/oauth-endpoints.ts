import { type EdgeReply, SCOPES } from '@doable/contracts-common';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { WebExchange } from '../exchange/web-exchange';
import { protectedResourceMetadata } from '@doable/contracts-mcp';
import { checkClientMetadata } from './client-registration';
import { basicCredentials } from './client-credentials';
import { OAuthAppService } from './oauth-app.service';
import { parseScopes } from './oauth-scopes';
import { OAuthProblem, OAuthService } from './oauth.service';

/** Tokens made by migrating a personal token expire; v1 reports when (`expires_in`, seconds). */
export const MIGRATED_TOKEN_TTL_SECONDS = 10 * 365 * 24 * 3600;
/** Injection token of the configured lifetime (`OAUTH_MIGRATED_TOKEN_TTL_SECONDS`). */
export const MIGRATED_TOKEN_TTL = Symbol('MIGRATED_TOKEN_TTL');

function problemReply(web: WebExchange, problem: OAuthProblem): EdgeReply {
  const headers: Record<string, string> = problem.status === 401 ? { 'WWW-Authenticate': 'Basic realm="Doable"' } : {};
  return web.json(problem.status, problem.description ? { error: problem.error, error_description: problem.description } : { error: problem.error }, headers);
}

/** The JSON side of OAuth: token exchange, revocation, migration, discovery. */
@Injectable()
export class OAuthEndpoints {
  constructor(
    private readonly apps: OAuthAppService,
    private readonly oauth: OAuthService,
    @Optional() @Inject(MIGRATED_TOKEN_TTL) private readonly migratedTokenTtlSeconds: number = MIGRATED_TOKEN_TTL_SECONDS,
  ) {}

  /** Runs an endpoint, rendering protocol errors as `{error}` JSON. */
  private async guarded(web: WebExchange, work: () => Promise<EdgeReply>): Promise<EdgeReply> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof OAuthProblem) return problemReply(web, err);
      throw err;
    }
  }

  /** `POST /oauth/access_token`: form or JSON, with or without grant_type; secret in the body or HTTP Basic. */
  accessToken(web: WebExchange): Promise<EdgeReply> {
    return this.guarded(web, async () => {
      const grantType = web.param('grant_type');
      if (grantType !== undefined && grantType !== 'authorization_code') throw new OAuthProblem('unsupported_grant_type');
      const basic = basicCredentials(web.header('authorization'));
      const { accessToken } = await this.oauth.exchangeCode({
        clientId: web.param('client_id') ?? basic?.clientId,
        clientSecret: web.param('client_secret') ?? basic?.clientSecret,
        code: web.param('code'),
        redirectUri: web.param('redirect_uri'),
        codeVerifier: web.param('code_verifier'),
      });
      return web.json(200, { access_token: accessToken, token_type: 'Bearer' });
    });
  }

  /** `POST /sync/v9/access_tokens/revoke`, `POST /api/v1/access_tokens/revoke`, `DELETE /api/v1/access_tokens`: 204. */
  revokeWithSecret(web: WebExchange): Promise<EdgeReply> {
    return this.guarded(web, async () => {
      const app = await this.apps.authenticate(web.param('client_id'), web.param('client_secret'));
      if (!app) throw new OAuthProblem('incorrect_application_credentials');
      const token = web.param('access_token');
      if (!token) throw new OAuthProblem('invalid_request', 400, 'access_token is required');
      await this.oauth.revoke(app, token);
      return { status: 204, body: null };
    });
  }

  /** `POST /api/v1/revoke` (RFC 7009): the client authenticates with HTTP Basic (or its secret in the body). */
  revokeRfc7009(web: WebExchange): Promise<EdgeReply> {
    return this.guarded(web, async () => {
      const basic = basicCredentials(web.header('authorization'));
      const app = basic ? await this.apps.authenticate(basic.clientId, basic.clientSecret) : await this.revokingClient(web.field('client_id'), web.field('client_secret'));
      if (!app) throw new OAuthProblem('invalid_client', 401, 'Client authentication failed');
      const token = web.field('token');
      if (!token) throw new OAuthProblem('invalid_request', 400, 'token is required');
      // token_type_hint is only a hint (RFC 7009 §2.1): there are no refresh tokens to look in.
      await this.oauth.revoke(app, token);
      return web.json(200, null);
    });
  }

  /**
   * A confidential client proves itself with its secret; a public one (an assistant) has none
   * and names itself (RFC 7009 §2.1 with RFC 6749 §2.1): revoking a token it was given harms no one.
   */
  private async revokingClient(clientId: string | undefined, clientSecret: string | undefined) {
    if (clientSecret !== undefined && clientSecret !== '') return this.apps.authenticate(clientId, clientSecret);
    const app = await this.apps.findByClientId(clientId);
    return app && app.registration !== 'console' ? app : undefined;
  }

  /** `POST /oauth/register` (RFC 7591): a public client registers itself; 201 with its client id. */
  async register(web: WebExchange): Promise<EdgeReply> {
    const checked = checkClientMetadata(web.request.body);
    if (!checked.ok) return web.json(400, { error: checked.error, error_description: checked.description });
    const app = await this.apps.createPublic('dynamic', checked.client.name, checked.client.redirectUris);
    return web.json(
      201,
      {
        client_id: app.clientId,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        client_name: app.name,
        redirect_uris: app.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      { 'Cache-Control': 'no-store' },
    );
  }

  /** RFC 9728 protected-resource metadata of the assistant server, on the caller's origin. */
  protectedResource(web: WebExchange): EdgeReply {
    return web.json(200, protectedResourceMetadata(web.origin), { 'Cache-Control': 'public, max-age=3600' });
  }

  /** `POST .../access_tokens/migrate_personal_token`: v1 (api/v1 path) adds `expires_in`. */
  migratePersonalToken(web: WebExchange): Promise<EdgeReply> {
    return this.guarded(web, async () => {
      const app = await this.apps.authenticate(web.param('client_id'), web.param('client_secret'));
      if (!app) throw new OAuthProblem('incorrect_application_credentials');
      const personalToken = web.param('personal_token');
      if (!personalToken) throw new OAuthProblem('invalid_request', 400, 'personal_token is required');
      const scopes = parseScopes(web.param('scope'));
      if (!scopes) throw new OAuthProblem('invalid_scope');
      const { accessToken } = await this.oauth.migratePersonalToken(app, personalToken, scopes, this.migratedTokenTtlSeconds);
      const body = web.request.dialect === 'sync-api-v1' ? { access_token: accessToken, token_type: 'Bearer', expires_in: this.migratedTokenTtlSeconds } : { access_token: accessToken, token_type: 'Bearer' };
      return web.json(200, body);
    });
  }

  /** RFC 8414 authorization-server metadata, with absolute URLs on the caller's origin. */
  metadata(web: WebExchange): EdgeReply {
    const base = web.origin;
    return web.json(
      200,
      {
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/access_token`,
        registration_endpoint: `${base}/oauth/register`,
        revocation_endpoint: `${base}/api/v1/revoke`,
        scopes_supported: [...SCOPES],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
        service_documentation: `${base}/auth/apps`,
      },
      { 'Cache-Control': 'public, max-age=3600' },
    );
  }
}
