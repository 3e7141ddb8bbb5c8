import { fitsBigint } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';

/**
 * The sync token tells the server what the client has already seen: the change version and
 * the live-notification cursor. It is bound to its user, so one user's token cannot be
 * replayed by another. Opaque to clients (base64url).
 */
export interface SyncPosition {
  readonly version: string;
  readonly notificationCursor: number;
}

const PREFIX = 'd1';

export function encodeSyncToken(userId: string, position: SyncPosition): string {
  return Buffer.from(`${PREFIX}:${userId}:${position.version}:${position.notificationCursor}`, 'utf8').toString('base64url');
}

export function decodeSyncToken(userId: string, token: string): SyncPosition {
  const invalid = () => new DomainError('INVALID_SYNC_TOKEN', 'Invalid sync token', { argument: 'sync_token' });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) throw invalid();
  const [prefix, owner, version, cursor, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split(':');
  if (prefix !== PREFIX || rest.length > 0 || owner !== userId || !fitsBigint(version ?? '') || !/^[0-9]{1,15}$/.test(cursor ?? '')) {
    throw invalid();
  }
  return { version, notificationCursor: Number(cursor) };
}
