import { isObjectId } from '@doable/contracts-common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from '@doable/contracts-auth';
import { DomainError } from '@doable/shared-errors';
import { Database, type Tx } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { AppSecretBox } from '../secrets/app-secret-box';

/** How an application came to be; 'first-party' is Doable's own web app, made by a migration. */
export type AppRegistration = 'console' | 'dynamic' | 'metadata-document' | 'first-party';

export interface OAuthApp {
  readonly id: string;
  /** The user who registered it in the console; null for a public client (an assistant). */
  readonly ownerId: string | null;
  readonly name: string;
  readonly clientId: string;
  readonly redirectUris: readonly string[];
  readonly status: 'active' | 'suspended';
  readonly tokenLimit: number | null;
  readonly registration: AppRegistration;
}

interface AppRow {
  id: string;
  owner_id: string | null;
  name: string;
  client_id: string;
  client_secret_hash: string | null;
  redirect_uris: string[];
  status: 'active' | 'suspended';
  token_limit: number | null;
  registration: AppRegistration;
}

const COLUMNS = 'id::text AS id, owner_id::text AS owner_id, name, client_id, client_secret_hash, redirect_uris, status, token_limit, registration';

function toApp(row: AppRow): OAuthApp {
  return { id: row.id, ownerId: row.owner_id, name: row.name, clientId: row.client_id, redirectUris: row.redirect_uris, status: row.status, tokenLimit: row.token_limit, registration: row.registration };
}

/** 32 hex characters, as the public service's client ids and secrets look. */
function randomHex(): string {
  return randomBytes(16).toString('hex');
}

export const MAX_REDIRECT_URIS = 10;

/** The name of the application first-generation log-ins are issued under (see legacyLoginApp). */
export const LEGACY_LOGIN_APP_NAME = 'First-generation login';

/**
 * A redirect URL an application may register: absolute http(s), no fragment (RFC 6749 §3.1.2),
 * no credentials. Plain http is allowed (local development and self-hosted tools).
 */
export function isValidRedirectUri(value: string): boolean {
  if (value.length > 2000) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hash === '' && !value.includes('#') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * OAuth applications: registered by a user in the console; the client secret is checked against
 * its hash, and kept encrypted besides only so that webhook bodies can be signed with it.
 */
@Injectable()
export class OAuthAppService {
  constructor(
    private readonly database: Database,
    private readonly secrets: AppSecretBox,
  ) {}

  async create(ownerId: string, name: string, redirectUris: readonly string[]): Promise<{ app: OAuthApp; clientSecret: string }> {
    const clientSecret = randomHex();
    const [row] = await this.database.query<AppRow[]>(
      `INSERT INTO auth.oauth_apps (owner_id, name, client_id, client_secret_hash, redirect_uris, client_secret_encrypted) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [ownerId, name, randomHex(), hashToken(clientSecret), [...redirectUris], await this.secrets.seal(clientSecret)],
    );
    return { app: toApp(row), clientSecret };
  }

  /**
   * A public client registering itself (RFC 7591), or one named by its metadata document's URL:
   * no owner, no secret (its codes need PKCE). `clientId` is the document's URL for the latter.
   */
  async createPublic(registration: 'dynamic' | 'metadata-document', name: string, redirectUris: readonly string[], clientId: string = randomHex()): Promise<OAuthApp> {
    const [row] = await this.database.query<AppRow[]>(
      `INSERT INTO auth.oauth_apps (owner_id, name, client_id, client_secret_hash, redirect_uris, registration) VALUES (NULL, $1, $2, NULL, $3, $4) RETURNING ${COLUMNS}`,
      [name, clientId, [...redirectUris], registration],
    );
    return toApp(row);
  }

  /** A metadata-document client's name and redirect URLs as its document says them now. */
  async refreshPublic(app: OAuthApp, name: string, redirectUris: readonly string[]): Promise<OAuthApp> {
    const [rows] = await this.database.query<[AppRow[], number]>(`UPDATE auth.oauth_apps SET name = $2, redirect_uris = $3 WHERE id = $1 RETURNING ${COLUMNS}`, [app.id, name, [...redirectUris]]);
    return rows[0] ? toApp(rows[0]) : app;
  }

  /**
   * The built-in application a first-generation `login` issues its tokens to: one per user, owned
   * by that user (an application needs an owner), so its tokens are listed and revocable among
   * the user's authorized apps like any other's. Made on first use; no redirect URIs (it never
   * takes part in the authorization-code flow). Two first logins racing may make two; either works.
   */
  async legacyLoginApp(userId: string): Promise<OAuthApp> {
    const [row] = await this.database.query<AppRow[]>(`SELECT ${COLUMNS} FROM auth.oauth_apps WHERE owner_id = $1 AND name = $2 ORDER BY id LIMIT 1`, [userId, LEGACY_LOGIN_APP_NAME]);
    return row ? toApp(row) : (await this.create(userId, LEGACY_LOGIN_APP_NAME, [])).app;
  }

  async listForOwner(ownerId: string): Promise<OAuthApp[]> {
    const rows = await this.database.query<AppRow[]>(`SELECT ${COLUMNS} FROM auth.oauth_apps WHERE owner_id = $1 ORDER BY id`, [ownerId]);
    return rows.map(toApp);
  }

  /** A new secret for the owner's app; the old one stops working at once. Undefined when not theirs. */
  async rotateSecret(ownerId: string, appId: string): Promise<{ app: OAuthApp; clientSecret: string } | undefined> {
    if (!isObjectId(appId)) return undefined;
    const clientSecret = randomHex();
    const [rows] = await this.database.query<[AppRow[], number]>(
      `UPDATE auth.oauth_apps SET client_secret_hash = $3, client_secret_encrypted = $4 WHERE id = $1 AND owner_id = $2 RETURNING ${COLUMNS}`,
      [appId, ownerId, hashToken(clientSecret), await this.secrets.seal(clientSecret)],
    );
    const row = rows[0];
    return row ? { app: toApp(row), clientSecret } : undefined;
  }

  async findByClientId(clientId: unknown): Promise<OAuthApp | undefined> {
    const row = await this.rowByClientId(clientId);
    return row ? toApp(row) : undefined;
  }

  /** The app whose id and secret these are, or undefined (unknown id and wrong secret look alike). */
  async authenticate(clientId: unknown, clientSecret: unknown): Promise<OAuthApp | undefined> {
    const row = await this.rowByClientId(clientId);
    // A public client has no secret: nothing authenticates as it.
    if (!row || row.client_secret_hash === null || typeof clientSecret !== 'string' || clientSecret.length === 0 || clientSecret.length > 256) return undefined;
    const expected = Buffer.from(row.client_secret_hash, 'hex');
    const actual = Buffer.from(hashToken(clientSecret), 'hex');
    return timingSafeEqual(expected, actual) ? toApp(row) : undefined;
  }

  /** Suspended, or holding as many live tokens as it may: it may not be granted new ones. */
  async isBlocked(app: OAuthApp): Promise<boolean> {
    if (app.status !== 'active') return true;
    if (app.tokenLimit === null) return false;
    const [row] = await this.database.query<Array<{ count: string }>>(
      `SELECT count(*) AS count FROM auth.access_tokens WHERE app_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [app.id],
    );
    return Number(row.count) >= app.tokenLimit;
  }

  /**
   * Inside a token-issuing transaction: locks the app's row, so concurrent grants for one app
   * queue here, then says whether it may get one more token. Two exchanges racing for the last
   * slot of a token limit cannot both pass: the second counts the first's token.
   */
  async mayIssueLocked(tx: Tx, appId: string): Promise<boolean> {
    const [app] = await tx.manager.query<Array<Pick<AppRow, 'status' | 'token_limit'>>>(`SELECT status, token_limit FROM auth.oauth_apps WHERE id = $1 FOR UPDATE`, [appId]);
    if (!app || app.status !== 'active') return false;
    if (app.token_limit === null) return true;
    const [row] = await tx.manager.query<Array<{ count: string }>>(
      `SELECT count(*) AS count FROM auth.access_tokens WHERE app_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [appId],
    );
    return Number(row.count) < app.token_limit;
  }

  /** Operators: suspends or reactivates an app by client id. A suspended app gets no new tokens; those it has keep working. */
  async setStatus(clientId: string, status: OAuthApp['status']): Promise<OAuthApp> {
    return this.updateByClientId(clientId, 'status = $2', status);
  }

  /** Operators: caps the app's live tokens (null lifts the cap). Tokens past a lowered cap keep working; new ones wait for room. */
  async setTokenLimit(clientId: string, tokenLimit: number | null): Promise<OAuthApp> {
    if (tokenLimit !== null && (!Number.isSafeInteger(tokenLimit) || tokenLimit < 0)) throw new DomainError('INVALID_ARGUMENT_VALUE', 'The token limit is a whole number, 0 or more', { argument: 'token_limit' });
    return this.updateByClientId(clientId, 'token_limit = $2', tokenLimit);
  }

  private async updateByClientId(clientId: string, assignment: string, value: unknown): Promise<OAuthApp> {
    const [rows] = await this.database.query<[AppRow[], number]>(`UPDATE auth.oauth_apps SET ${assignment} WHERE client_id = $1 RETURNING ${COLUMNS}`, [clientId, value]);
    const row = rows[0];
    if (!row) throw new DomainError('OAUTH_APP_NOT_FOUND', `No application with the client id ${clientId}`, { argument: 'client_id' });
    return toApp(row);
  }

  private async rowByClientId(clientId: unknown): Promise<AppRow | undefined> {
    // Up to 2048: a client id may be the URL of its metadata document.
    if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > 2048) return undefined;
    const rows = await this.database.query<AppRow[]>(`SELECT ${COLUMNS} FROM auth.oauth_apps WHERE client_id = $1`, [clientId]);
    return rows[0];
  }
}
