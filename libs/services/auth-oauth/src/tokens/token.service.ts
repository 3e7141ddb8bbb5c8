import type { VerifiedToken } from '@doable/contracts-auth';
import type { Principal } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';

interface TokenRow {
  user_id: string;
  kind: 'personal' | 'oauth';
  app_id: string | null;
  scopes: string[];
  expires_at: Date | null;
}

@Injectable()
export class TokenService {
  constructor(private readonly database: Database) {}

  /** The principal behind a live token; expired, revoked and unknown tokens are all just invalid. */
  async verify(tokenHash: string): Promise<VerifiedToken> {
    const rows = await this.database.query<TokenRow[]>(
      `SELECT user_id::text, kind, app_id::text, scopes, expires_at FROM auth.access_tokens
        WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) throw new DomainError('AUTH_REQUIRED');
    const expiresAt = row.expires_at === null ? null : new Date(row.expires_at).toISOString();
    return { userId: row.user_id, tokenKind: row.kind, appId: row.app_id, scopes: row.scopes as Principal['scopes'], expiresAt };
  }
}
