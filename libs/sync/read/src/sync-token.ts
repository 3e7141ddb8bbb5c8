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
  /** The user's live-notification delivery count seen (sync.users.notification_mark); tokens made before it existed read 0. */
  readonly notificationMark: string;
}

const PREFIX = 'd1';

export function encodeSyncToken(userId: string, position: SyncPosition): string {
  return Buffer.from(`${PREFIX}:${userId}:${position.version}:${position.notificationCursor}:${position.notificationMark}`, 'utf8').toString('base64url');
}

export function decodeSyncToken(userId: string, token: string): SyncPosition {
  const invalid = () => new DomainError('INVALID_SYNC_TOKEN', 'Invalid sync token', { argument: 'sync_token' });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) throw invalid();
  const [prefix, owner, version, cursor, mark = '0', ...rest] = Buffer.from(token, 'base64url').toString('utf8').split(':');
  if (prefix !== PREFIX || rest.length > 0 || owner !== userId || !fitsBigint(version ?? '') || !/^[0-9]{1,15}$/.test(cursor ?? '') || !fitsBigint(mark)) {
    throw invalid();
  }
  return { version, notificationCursor: Number(cursor), notificationMark: mark };
}
