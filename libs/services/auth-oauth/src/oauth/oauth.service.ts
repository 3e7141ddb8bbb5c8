import { randomBytes } from 'node:crypto';
import { AuthEvents, hashToken } from '@doable/contracts-auth';
import { isObjectId, type Scope, SCOPES } from '@doable/contracts-common';
import { Database, type Tx } from '@doable/shared-runtime';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { generatePersonalToken } from '../tokens/personal-token';
import { NO_BARRIER, REVOCATION_BARRIER, type RevocationBarrier } from '../tokens/revocation-barrier';
import { type OAuthApp, OAuthAppService } from './oauth-app.service';
import { verifiesS256 } from './pkce';

/** An OAuth protocol error, rendered by the edge as `{error}` JSON; never crosses NATS as such. */
export class OAuthProblem extends Error {
  constructor(
    readonly error: string,
    readonly status = 400,
    readonly description?: string,
  ) {
    super(description ?? error);
    this.name = 'OAuthProblem';
  }
}

/** Authorization codes live ten minutes and work once (RFC 6749 §4.1.2 recommends at most ten). */
export const CODE_TTL_SECONDS = 600;

export interface CodeGrant {
  readonly userId: string;
  readonly scopes: readonly Scope[];
  /** The redirect_uri the authorization request named explicitly (null when it relied on the registered one). */
  readonly redirectUri: string | null;
  /** PKCE S256 challenge, when the client sent one. */
  readonly codeChallenge: string | null;
}

export interface CodeExchange {
  readonly clientId: unknown;
  readonly clientSecret: unknown;
  readonly code: unknown;
  readonly redirectUri: unknown;
  readonly codeVerifier: unknown;
}

interface CodeRow {
  user_id: string;
  scopes: Scope[];
  redirect_uri: string | null;
  code_challenge: string | null;
}

/** An application holding live tokens of a user (OAuth grants and migrated personal tokens). */
export interface AuthorizedApp {
  readonly appId: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** When the user first granted it a token that is still live. */
  readonly grantedAt: Date;
  readonly tokens: number;
}

/** Codes, OAuth access tokens, revocation and migration of personal tokens. */
@Injectable()
export class OAuthService {
  constructor(
    private readonly database: Database,
    private readonly apps: OAuthAppService,
    @Optional() @Inject(REVOCATION_BARRIER) private readonly barrier: RevocationBarrier = NO_BARRIER,
  ) {}

  async issueCode(app: OAuthApp, grant: CodeGrant): Promise<string> {
    const code = randomBytes(20).toString('hex');
    // Housekeeping on the way: codes a day past their expiry serve no purpose, not even for audits.
    await this.database.query(`DELETE FROM auth.oauth_codes WHERE expires_at < now() - interval '1 day'`);
    await this.database.query(
      `INSERT INTO auth.oauth_codes (code_hash, app_id, user_id, scopes, redirect_uri, code_challenge, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
      [hashToken(code), app.id, grant.userId, [...grant.scopes], grant.redirectUri, grant.codeChallenge, CODE_TTL_SECONDS],
    );
    return code;
  }

  /**
   * Trades a code for an access token. The client authenticates with its secret; a public client
   * whose code carries a PKCE challenge may instead prove itself with the verifier alone.
   */
  async exchangeCode(request: CodeExchange): Promise<{ accessToken: string }> {
    const app = await this.apps.findByClientId(request.clientId);
    if (!app) throw new OAuthProblem('incorrect_application_credentials');
    const hasSecret = typeof request.clientSecret === 'string' && request.clientSecret.length > 0;
    if (hasSecret && !(await this.apps.authenticate(request.clientId, request.clientSecret))) throw new OAuthProblem('incorrect_application_credentials');
    if (typeof request.code !== 'string' || request.code.length === 0 || request.code.length > 256) throw new OAuthProblem('bad_authorization_code');
    if (request.redirectUri !== undefined && typeof request.redirectUri !== 'string') throw new OAuthProblem('redirect_uri_mismatch');
    if (await this.apps.isBlocked(app)) throw new OAuthProblem('invalid_application_status');
    const codeHash = hashToken(request.code);
    let accessToken = '';
    const outcome = await this.database.transaction(async (tx) => {
      // Single use: the first exchange marks it, so a replay finds nothing.
      const [rows] = await tx.manager.query<[CodeRow[], number]>(
        `UPDATE auth.oauth_codes SET used_at = now() WHERE code_hash = $1 AND app_id = $2 AND used_at IS NULL AND expires_at > now()
         RETURNING user_id::text AS user_id, scopes, redirect_uri, code_challenge`,
        [codeHash, app.id],
      );
      const row = rows[0];
      if (!row) return 'bad_authorization_code' as const;
      // RFC 6749 §4.1.3: the same redirect_uri as the authorization request, when that named one.
      const sentRedirect = typeof request.redirectUri === 'string' && request.redirectUri !== '' ? request.redirectUri : null;
      if (row.redirect_uri !== null ? sentRedirect !== row.redirect_uri : sentRedirect !== null && !app.redirectUris.includes(sentRedirect)) {
        return 'redirect_uri_mismatch' as const;
      }
      if (row.code_challenge !== null ? !verifiesS256(request.codeVerifier, row.code_challenge) : !hasSecret) {
        return row.code_challenge !== null ? ('bad_authorization_code' as const) : ('incorrect_application_credentials' as const);
      }
      accessToken = generatePersonalToken(row.user_id);
      if (!(await this.insertToken(tx, app, row.user_id, row.scopes, accessToken, null))) return 'invalid_application_status' as const;
      return 'ok' as const;
    });
    // A failed check has still used the code up (the mark committed): no second guess at a verifier.
    if (outcome !== 'ok') throw new OAuthProblem(outcome);
    return { accessToken };
  }

  /**
   * Revokes one of the app's tokens, at once on every gateway (the token-revoked event). A token
   * that is unknown, already revoked or another app's is left alone without saying so (RFC 7009 §2.2).
   */
  async revoke(app: OAuthApp, token: string): Promise<void> {
    const revoked = await this.database.transaction(async (tx) => {
      const [rows] = await tx.manager.query<[Array<{ user_id: string; token_hash: string }>, number]>(
        `UPDATE auth.access_tokens SET revoked_at = now() WHERE token_hash = $1 AND app_id = $2 AND kind = 'oauth' AND revoked_at IS NULL
         RETURNING user_id::text AS user_id, token_hash`,
        [hashToken(token), app.id],
      );
      for (const row of rows) await tx.emit(AuthEvents.tokenRevoked, { tokenHash: row.token_hash, userId: row.user_id });
      for (const userId of new Set(rows.map((row) => row.user_id))) await this.announceIfUnauthorized(tx, app.id, userId);
      return rows.map((row) => row.token_hash);
    });
    // After the commit (never inside the transaction): returns once no gateway accepts the token.
    await this.barrier.revoked(revoked);
  }

  /** The applications that hold live tokens of this user, each with the union of their scopes. */
  async authorizedApps(userId: string): Promise<AuthorizedApp[]> {
    const rows = await this.database.query<Array<{ app_id: string; name: string; scopes: Scope[]; created_at: Date }>>(
      `SELECT a.id::text AS app_id, a.name, t.scopes, t.created_at
         FROM auth.access_tokens t JOIN auth.oauth_apps a ON a.id = t.app_id
        WHERE t.user_id = $1 AND t.kind = 'oauth' AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
        ORDER BY t.created_at, t.id`,
      [userId],
    );
    const byApp = new Map<string, { appId: string; name: string; scopes: Set<Scope>; grantedAt: Date; tokens: number }>();
    for (const row of rows) {
      const app = byApp.get(row.app_id) ?? { appId: row.app_id, name: row.name, scopes: new Set<Scope>(), grantedAt: new Date(row.created_at), tokens: 0 };
      for (const scope of row.scopes) app.scopes.add(scope);
      app.tokens++;
      byApp.set(row.app_id, app);
    }
    return [...byApp.values()].map((app) => ({ ...app, scopes: [...app.scopes].sort() }));
  }

  /**
   * The user takes back an application's access: every token of theirs it holds is revoked, at
   * once on every gateway (one token-revoked event each). Answers how many were revoked.
   */
  async revokeAppForUser(userId: string, appId: string): Promise<number> {
    if (!isObjectId(appId)) return 0;
    const revoked = await this.database.transaction(async (tx) => {
      const [rows] = await tx.manager.query<[Array<{ token_hash: string }>, number]>(
        `UPDATE auth.access_tokens SET revoked_at = now() WHERE user_id = $1 AND app_id = $2 AND kind = 'oauth' AND revoked_at IS NULL RETURNING token_hash`,
        [userId, appId],
      );
      for (const row of rows) await tx.emit(AuthEvents.tokenRevoked, { tokenHash: row.token_hash, userId });
      if (rows.length > 0) await this.announceIfUnauthorized(tx, appId, userId);
      return rows.map((row) => row.token_hash);
    });
    await this.barrier.revoked(revoked);
    return revoked.length;
  }

  /** An OAuth token for the owner of a live personal token, with the given scopes. */
  async migratePersonalToken(app: OAuthApp, personalToken: string, scopes: readonly Scope[], expiresInSeconds: number): Promise<{ accessToken: string }> {
    if (await this.apps.isBlocked(app)) throw new OAuthProblem('invalid_application_status');
    let accessToken = '';
    const issued = await this.database.transaction(async (tx) => {
      const [owner] = await tx.manager.query<Array<{ user_id: string }>>(
        `SELECT user_id::text AS user_id FROM auth.access_tokens WHERE token_hash = $1 AND kind = 'personal' AND revoked_at IS NULL`,
        [hashToken(personalToken)],
      );
      if (!owner) return 'invalid_grant' as const;
      accessToken = generatePersonalToken(owner.user_id);
      if (!(await this.insertToken(tx, app, owner.user_id, scopes, accessToken, expiresInSeconds))) return 'invalid_application_status' as const;
      return 'ok' as const;
    });
    if (issued === 'invalid_grant') throw new OAuthProblem('invalid_grant', 400, 'The personal token is not valid');
    if (issued !== 'ok') throw new OAuthProblem(issued);
    return { accessToken };
  }

  /**
   * A first-generation `login`: a NEW access token of the user's legacy-login application (the
   * personal token is stored hashed and cannot be given back), with every scope a personal token
   * holds, without expiry. Undefined when the application may not issue (suspended, at its limit).
   */
  async issueLegacyLoginToken(app: OAuthApp, userId: string): Promise<string | undefined> {
    if (await this.apps.isBlocked(app)) return undefined;
    const accessToken = generatePersonalToken(userId);
    const issued = await this.database.transaction((tx) => this.insertToken(tx, app, userId, SCOPES, accessToken, null));
    return issued ? accessToken : undefined;
  }

  /**
   * A token of the first-party web app for the person a browser session names, bound to that
   * session (`sessionHash`): it expires after `expiresInSeconds` and is revoked when the session
   * ends (SessionService). The session's own expired tokens are deleted on the way, so a person
   * opening many tabs over months leaves no pile of dead rows. Undefined when the app may not issue.
   */
  async issueSessionToken(app: OAuthApp, userId: string, scopes: readonly Scope[], sessionHash: string, expiresInSeconds: number): Promise<string | undefined> {
    if (await this.apps.isBlocked(app)) return undefined;
    const accessToken = generatePersonalToken(userId);
    const issued = await this.database.transaction(async (tx) => {
      await tx.manager.query(`DELETE FROM auth.access_tokens WHERE session_hash = $1 AND expires_at <= now()`, [sessionHash]);
      return this.insertToken(tx, app, userId, scopes, accessToken, expiresInSeconds, sessionHash);
    });
    return issued ? accessToken : undefined;
  }

  /**
   * Inserts the token unless the app is suspended or at its token limit (checked under a lock of
   * the app's row, so concurrent grants cannot overshoot the limit); false when refused.
   */
  private async insertToken(tx: Tx, app: OAuthApp, userId: string, scopes: readonly Scope[], token: string, expiresInSeconds: number | null, sessionHash: string | null = null): Promise<boolean> {
    if (!(await this.apps.mayIssueLocked(tx, app.id))) return false;
    await tx.manager.query(
      `INSERT INTO auth.access_tokens (user_id, token_hash, kind, app_id, scopes, expires_at, session_hash)
       VALUES ($1, $2, 'oauth', $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(secs => $5::int) END, $6)`,
      [userId, hashToken(token), app.id, [...scopes], expiresInSeconds, sessionHash],
    );
    await tx.emit(AuthEvents.appAuthorizationChanged, { appId: app.id, userId, authorized: true, changedAt: await databaseNow(tx) });
    return true;
  }

  /**
   * After revoking: when the user holds no live token of the app any more, the app stops being
   * authorised by them (the webhooks service stops their deliveries). Expired tokens are not
   * announced: an app whose only token expired keeps receiving until it is revoked.
   */
  private async announceIfUnauthorized(tx: Tx, appId: string, userId: string): Promise<void> {
    const [live] = await tx.manager.query<Array<{ count: string }>>(
      `SELECT count(*) AS count FROM auth.access_tokens WHERE app_id = $1 AND user_id = $2 AND kind = 'oauth' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [appId, userId],
    );
    if (Number(live.count) === 0) await tx.emit(AuthEvents.appAuthorizationChanged, { appId, userId, authorized: false, changedAt: await databaseNow(tx) });
  }
}

/** The database clock to the microsecond: orders the events of one (app, user) across replicas. */
async function databaseNow(tx: Tx): Promise<string> {
  const [row] = await tx.manager.query<Array<{ now: string }>>(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`);
  return row.now;
}
