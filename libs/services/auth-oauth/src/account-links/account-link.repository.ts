import { randomBytes } from 'node:crypto';
import { hashToken } from '@doable/contracts-auth';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LINK_RATE_WINDOW_SECONDS, LINK_REQUESTS_PER_ADDRESS, LINKS_PER_ACCOUNT } from './link-settings';

/**
 * password-reset and email-change (issue #33); email-verify: a sign-up's confirmation; sso-link:
 * the browser's handle on a single sign-on that wants an unverified account (its password links
 * it); sso-link-mail: the same, mailed to the account's address (issue #44).
 */
export type LinkKind = 'password-reset' | 'email-change' | 'email-verify' | 'sso-link' | 'sso-link-mail';

/** The provider's person a single sign-on link would attach (sso-link kinds only). */
export interface LinkIdentity {
  readonly providerId: string;
  readonly issuer: string;
  readonly subject: string;
}

/** A live link found by its secret's hash, with the account it opens. */
export interface LiveLink {
  readonly id: string;
  readonly userId: string;
  readonly email: string;
  readonly fullName: string;
  readonly newEmail: string | null;
  readonly identity: LinkIdentity | null;
  /** The account's password hash (a single sign-on link asks for the password). */
  readonly passwordHash: string | null;
}

/** How a typed address is kept for counting: its sha256, lower-cased, never the address itself. */
export function addressHash(address: string): string {
  return hashToken(address.trim().toLowerCase());
}

/** auth.account_links and auth.link_requests: the SQL of mailed single-use links. */
@Injectable()
export class AccountLinkRepository {
  /** The account with this email (any casing), locked for the request's transaction. */
  async lockAccountByEmail(manager: EntityManager, email: string): Promise<{ id: string; email: string; fullName: string } | undefined> {
    const [row] = await manager.query<Array<{ id: string; email: string; full_name: string }>>(
      `SELECT id::text AS id, email, full_name FROM auth.accounts WHERE lower(email) = lower($1) FOR UPDATE`,
      [email],
    );
    return row ? { id: row.id, email: row.email, fullName: row.full_name } : undefined;
  }

  /**
   * Counts this request against the address unless it already made `limit` in the window; false
   * when over. Rows past a day are pruned on the way (no window is longer).
   */
  async countRequest(manager: EntityManager, kind: LinkKind, address: string, limit: number, windowSeconds: number): Promise<boolean> {
    await manager.query(`DELETE FROM auth.link_requests WHERE requested_at < now() - interval '1 day'`);
    const hash = addressHash(address);
    const [row] = await manager.query<Array<{ count: string }>>(
      `SELECT count(*) AS count FROM auth.link_requests WHERE kind = $1 AND address_hash = $2 AND requested_at > now() - make_interval(secs => $3)`,
      [kind, hash, windowSeconds],
    );
    if (Number(row.count) >= limit) return false;
    await manager.query(`INSERT INTO auth.link_requests (kind, address_hash) VALUES ($1, $2)`, [kind, hash]);
    return true;
  }

  /** How many links of this kind the account was sent in the window (its own rate limit). */
  async issuedRecently(manager: EntityManager, userId: string, kind: LinkKind, windowSeconds: number): Promise<number> {
    const [row] = await manager.query<Array<{ count: string }>>(
      `SELECT count(*) AS count FROM auth.account_links WHERE user_id = $1 AND kind = $2 AND created_at > now() - make_interval(secs => $3)`,
      [userId, kind, windowSeconds],
    );
    return Number(row.count);
  }

  /**
   * Whether one more link of `kind` may go out for this account to this address: at most
   * LINKS_PER_ACCOUNT an hour for the account, then LINK_REQUESTS_PER_ADDRESS for the address
   * (counted only once the account's limit let the request through).
   */
  async withinLinkLimits(manager: EntityManager, kind: LinkKind, userId: string, address: string): Promise<boolean> {
    if ((await this.issuedRecently(manager, userId, kind, LINK_RATE_WINDOW_SECONDS)) >= LINKS_PER_ACCOUNT) return false;
    return this.countRequest(manager, kind, address, LINK_REQUESTS_PER_ADDRESS, LINK_RATE_WINDOW_SECONDS);
  }

  /** A new single-use link: a random secret (32 bytes, base64url) for the mail, stored only as its sha256. */
  async issue(manager: EntityManager, link: { userId: string; kind: LinkKind; newEmail?: string; identity?: LinkIdentity; ttlSeconds: number }): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    return { token, expiresAt: await this.insert(manager, { ...link, tokenHash: hashToken(token) }) };
  }

  /** Stores a new link (its hash only); answers when it expires, by the database clock. */
  async insert(manager: EntityManager, link: { userId: string; kind: LinkKind; tokenHash: string; newEmail?: string; identity?: LinkIdentity; ttlSeconds: number }): Promise<Date> {
    const [row] = await manager.query<Array<{ expires_at: Date }>>(
      `INSERT INTO auth.account_links (user_id, kind, token_hash, new_email, expires_at, sso_provider_id, sso_issuer, sso_subject)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6, $7, $8)
       RETURNING expires_at`,
      [link.userId, link.kind, link.tokenHash, link.newEmail ?? null, link.ttlSeconds, link.identity?.providerId ?? null, link.identity?.issuer ?? null, link.identity?.subject ?? null],
    );
    return new Date(row.expires_at);
  }

  /** The live (unused, unexpired) link of this kind with this hash; with `lock`, its row is locked. */
  async findLive(manager: EntityManager, kind: LinkKind, tokenHash: string, lock = false): Promise<LiveLink | undefined> {
    type Row = { id: string; user_id: string; email: string; full_name: string; new_email: string | null; password_hash: string | null; sso_provider_id: string | null; sso_issuer: string | null; sso_subject: string | null };
    const [row] = await manager.query<Row[]>(
      `SELECT l.id::text AS id, l.user_id::text AS user_id, a.email, a.full_name, l.new_email, a.password_hash, l.sso_provider_id, l.sso_issuer, l.sso_subject
         FROM auth.account_links l JOIN auth.accounts a ON a.id = l.user_id
        WHERE l.token_hash = $1 AND l.kind = $2 AND l.used_at IS NULL AND l.expires_at > now()${lock ? ' FOR UPDATE OF l' : ''}`,
      [tokenHash, kind],
    );
    if (!row) return undefined;
    const identity = row.sso_provider_id && row.sso_issuer && row.sso_subject ? { providerId: row.sso_provider_id, issuer: row.sso_issuer, subject: row.sso_subject } : null;
    return { id: row.id, userId: row.user_id, email: row.email, fullName: row.full_name, newEmail: row.new_email, identity, passwordHash: row.password_hash };
  }

  /** An account's address, name and password hash (for a change it asks for). */
  async account(manager: EntityManager, userId: string, lock = false): Promise<{ email: string; fullName: string; passwordHash: string | null } | undefined> {
    const [row] = await manager.query<Array<{ email: string; full_name: string; password_hash: string | null }>>(
      `SELECT email, full_name, password_hash FROM auth.accounts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [userId],
    );
    return row ? { email: row.email, fullName: row.full_name, passwordHash: row.password_hash } : undefined;
  }

  /** Whether any account uses this address (any casing). */
  async emailTaken(manager: EntityManager, email: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>('SELECT 1 FROM auth.accounts WHERE lower(email) = lower($1)', [email]);
    return rows.length > 0;
  }

  async setPasswordHash(manager: EntityManager, userId: string, passwordHash: string): Promise<void> {
    await manager.query('UPDATE auth.accounts SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  }

  /** Sets the address; PostgreSQL refuses one another account took meanwhile (unique index, 23505). */
  async setEmail(manager: EntityManager, userId: string, email: string): Promise<void> {
    await manager.query('UPDATE auth.accounts SET email = $2 WHERE id = $1', [userId, email]);
  }

  /** The account's address is proven from now on (kept when already: the first proof's time stays). */
  async markVerified(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('UPDATE auth.accounts SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1', [userId]);
  }

  /**
   * Ends every way into the account that its password holder set up: the password, two-factor
   * log-in (its recovery codes go with it) and every live mailed link. Sessions and tokens are
   * signOutEverywhere's.
   */
  async dropCredentials(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('UPDATE auth.accounts SET password_hash = NULL WHERE id = $1', [userId]);
    await manager.query('DELETE FROM auth.two_factor WHERE user_id = $1', [userId]);
    await manager.query('UPDATE auth.account_links SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [userId]);
  }

  /** Whether this provider's person is linked already, or the account holds another person of the issuer. */
  async identityTaken(manager: EntityManager, identity: LinkIdentity, userId: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>('SELECT 1 FROM auth.sso_identities WHERE issuer = $1 AND (subject = $2 OR user_id = $3)', [identity.issuer, identity.subject, userId]);
    return rows.length > 0;
  }

  /** Ends one link (used). */
  async end(manager: EntityManager, linkId: string): Promise<void> {
    await manager.query('UPDATE auth.account_links SET used_at = now() WHERE id = $1', [linkId]);
  }

  /** Ends every browser session of the account. */
  async endSessions(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('DELETE FROM auth.sessions WHERE user_id = $1', [userId]);
  }

  /** Ends every live link of this kind of the account: the one used and any older one. */
  async endAll(manager: EntityManager, userId: string, kind: LinkKind): Promise<void> {
    await manager.query(`UPDATE auth.account_links SET used_at = now() WHERE user_id = $1 AND kind = $2 AND used_at IS NULL`, [userId, kind]);
  }
}
