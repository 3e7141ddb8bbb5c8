import { randomBytes } from 'node:crypto';
import { hashToken } from '@doable/contracts-auth';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import type { PendingChecks } from './oidc-client';

/** How long a person may take at the provider before the callback is refused. */
export const SSO_LOGIN_TTL_SECONDS = 10 * 60;

export interface PendingLogin extends PendingChecks {
  readonly providerId: string;
  readonly redirectUri: string;
  readonly next?: string;
}

/**
 * Sign-ins under way, kept server-side (any replica may get the callback): the browser holds a
 * random id in a short-lived cookie, the table its sha256 with the state, nonce and PKCE
 * verifier. Taking one deletes it, so a callback is answered once.
 */
@Injectable()
export class SsoLogins {
  constructor(private readonly database: Database) {}

  /** The cookie's value for a new pending sign-in. */
  async begin(login: PendingLogin): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.database.query('DELETE FROM auth.sso_logins WHERE expires_at <= now()');
    await this.database.query(
      `INSERT INTO auth.sso_logins (login_hash, provider_id, state, nonce, code_verifier, redirect_uri, next, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
      [hashToken(id), login.providerId, login.state, login.nonce, login.codeVerifier, login.redirectUri, login.next ?? null, SSO_LOGIN_TTL_SECONDS],
    );
    return id;
  }

  /** The pending sign-in of this cookie, removed (single use); undefined when none or expired. */
  async take(id: string | undefined): Promise<PendingLogin | undefined> {
    if (!id || id.length > 128) return undefined;
    type Row = { provider_id: string; state: string; nonce: string; code_verifier: string; redirect_uri: string; next: string | null; live: boolean };
    const [rows] = await this.database.query<[Row[], number]>(
      `DELETE FROM auth.sso_logins WHERE login_hash = $1 RETURNING provider_id, state, nonce, code_verifier, redirect_uri, next, expires_at > now() AS live`,
      [hashToken(id)],
    );
    const row = rows[0] as Row | undefined;
    if (!row?.live) return undefined;
    return { providerId: row.provider_id, state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, redirectUri: row.redirect_uri, next: row.next ?? undefined };
  }
}
