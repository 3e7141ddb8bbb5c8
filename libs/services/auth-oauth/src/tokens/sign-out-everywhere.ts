import { AuthEvents } from '@doable/contracts-auth';
import type { Tx } from '@doable/shared-runtime';

/**
 * Signs an account out of everything, in the caller's transaction: its browser sessions end, its
 * unused authorization codes are spent, and every live token (personal and OAuth) is revoked with
 * one token-revoked event each (gateways drop them from their caches), and each app that held one
 * is told it is no longer authorised. Answers the revoked hashes, for the revocation barrier the
 * caller waits on after the commit.
 */
export async function signOutEverywhere(tx: Tx, userId: string): Promise<string[]> {
  await tx.manager.query('DELETE FROM auth.sessions WHERE user_id = $1', [userId]);
  await tx.manager.query('UPDATE auth.oauth_codes SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [userId]);
  // TypeORM answers UPDATE ... RETURNING with [rows, affected].
  const [rows] = await tx.manager.query<[Array<{ token_hash: string; app_id: string | null }>, number]>(
    `UPDATE auth.access_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING token_hash, app_id::text AS app_id`,
    [userId],
  );
  for (const row of rows) await tx.emit(AuthEvents.tokenRevoked, { tokenHash: row.token_hash, userId });
  const apps = [...new Set(rows.map((row) => row.app_id).filter((id): id is string => id !== null))];
  if (apps.length > 0) {
    const [{ now }] = await tx.manager.query<Array<{ now: string }>>(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`);
    for (const appId of apps) await tx.emit(AuthEvents.appAuthorizationChanged, { appId, userId, authorized: false, changedAt: now });
  }
  return rows.map((row) => row.token_hash);
}
