import { randomBytes } from 'node:crypto';
import { AuthEvents, hashToken } from '@doable/contracts-auth';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { NO_BARRIER, REVOCATION_BARRIER, type RevocationBarrier } from '../tokens/revocation-barrier';

export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionUser {
  readonly userId: string;
  readonly email: string;
  readonly fullName: string;
}

/**
 * Browser sessions: the cookie holds a random id; the table holds only its sha256. The web app's
 * tokens are issued to a session (`access_tokens.session_hash`, app-session.endpoints.ts), so
 * every way a session ends revokes them too, at once on every gateway: a token outliving the
 * session that was signed out would keep a person signed in after "Sign out".
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly database: Database,
    @Optional() @Inject(REVOCATION_BARRIER) private readonly barrier: RevocationBarrier = NO_BARRIER,
  ) {}

  /** A new session for the user (a fresh id on every log-in, so a planted id is never promoted). */
  async start(userId: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.database.query('DELETE FROM auth.sessions WHERE user_id = $1 AND expires_at <= now()', [userId]);
    await this.database.query(`INSERT INTO auth.sessions (session_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
      hashToken(id),
      userId,
      SESSION_TTL_SECONDS,
    ]);
    return id;
  }

  async find(id: string | undefined): Promise<SessionUser | undefined> {
    if (!id || id.length > 128) return undefined;
    const rows = await this.database.query<Array<{ user_id: string; email: string; full_name: string }>>(
      `SELECT s.user_id::text, a.email, a.full_name FROM auth.sessions s JOIN auth.accounts a ON a.id = s.user_id
        WHERE s.session_hash = $1 AND s.expires_at > now()`,
      [hashToken(id)],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, email: row.email, fullName: row.full_name } : undefined;
  }

  async end(id: string | undefined): Promise<void> {
    if (id) await this.endWhere('session_hash = $1', [hashToken(id)]);
  }

  /** Every session of the user but `keepId` (the one that made a change the others never proved). */
  async endAllExcept(userId: string, keepId: string | undefined): Promise<void> {
    await this.endWhere('user_id = $1 AND session_hash <> $2', [userId, keepId ? hashToken(keepId) : '']);
  }

  async endAllFor(userId: string): Promise<void> {
    await this.endWhere('user_id = $1', [userId]);
  }

  /**
   * Deletes the sessions `where` names and revokes the tokens issued to them, in one transaction
   * (the token-revoked events go with it); returns once no gateway accepts those tokens.
   */
  private async endWhere(where: string, params: unknown[]): Promise<void> {
    const revoked = await this.database.transaction(async (tx) => {
      const [ended] = await tx.manager.query<[Array<{ session_hash: string }>, number]>(`DELETE FROM auth.sessions WHERE ${where} RETURNING session_hash`, params);
      if (ended.length === 0) return [];
      const [tokens] = await tx.manager.query<[Array<{ token_hash: string; user_id: string }>, number]>(
        `UPDATE auth.access_tokens SET revoked_at = now() WHERE session_hash = ANY($1) AND revoked_at IS NULL RETURNING token_hash, user_id::text AS user_id`,
        [ended.map((row) => row.session_hash)],
      );
      for (const token of tokens) await tx.emit(AuthEvents.tokenRevoked, { tokenHash: token.token_hash, userId: token.user_id });
      return tokens.map((token) => token.token_hash);
    });
    await this.barrier.revoked(revoked);
  }
}
