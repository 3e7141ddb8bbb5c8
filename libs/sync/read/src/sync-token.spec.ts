import { DomainError } from '@doable/shared-errors';
import { decodeSyncToken, encodeSyncToken } from './sync-token';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function decodeError(userId: string, token: string): DomainError {
  try {
    decodeSyncToken(userId, token);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected decodeSyncToken to throw');
}

describe('sync token', () => {
  it.each([
    ['42', { version: '0', notificationCursor: 0, notificationMark: '0' }],
    ['42', { version: '1234567890123456789', notificationCursor: 987_654_321_012_345, notificationMark: '0' }],
    ['7', { version: '55', notificationCursor: 3, notificationMark: '0' }],
  ])('round-trips for user %s: %j', (userId, position) => {
    expect(decodeSyncToken(userId, encodeSyncToken(userId, position))).toEqual(position);
  });

  it('carries the live-notification delivery count, and reads a token made before it as 0', () => {
    expect(decodeSyncToken('42', encodeSyncToken('42', { version: '9', notificationCursor: 1, notificationMark: '12' })).notificationMark).toBe('12');
    const older = Buffer.from('d1:42:9:1', 'utf8').toString('base64url');
    expect(decodeSyncToken('42', older)).toEqual({ version: '9', notificationCursor: 1, notificationMark: '0' });
  });

  it('is opaque base64url', () => {
    const token = encodeSyncToken('42', { version: '10', notificationCursor: 2, notificationMark: '0' });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('42:10');
  });

  it('differs between users for the same position', () => {
    const position = { version: '10', notificationCursor: 2, notificationMark: '0' };
    expect(encodeSyncToken('1', position)).not.toBe(encodeSyncToken('2', position));
  });

  it("rejects another user's token as INVALID_SYNC_TOKEN naming sync_token", () => {
    const token = encodeSyncToken('1', { version: '10', notificationCursor: 2, notificationMark: '0' });
    const err = decodeError('2', token);
    expect(err.code).toBe('INVALID_SYNC_TOKEN');
    expect(err.extra).toEqual({ argument: 'sync_token' });
  });

  it.each([
    ['empty', ''],
    ['the full-sync marker', '*'],
    ['non-base64url characters', 'abc$def'],
    ['standard base64 padding', `${b64('d1:42:10:2')}==`],
    ['over 200 characters', 'A'.repeat(201)],
    ['garbage that decodes to nothing useful', 'bm9wZQ'],
    ['a wrong prefix', b64('d2:42:10:2')],
    ['no prefix', b64('42:10:2')],
    ['an extra field', b64('d1:42:10:2:0:9')],
    ['a non-numeric delivery count', b64('d1:42:10:2:x')],
    ['a missing cursor', b64('d1:42:10')],
    ['an empty cursor', b64('d1:42:10:')],
    ['a non-numeric version', b64('d1:42:abc:2')],
    ['a negative version', b64('d1:42:-1:2')],
    ['a fractional cursor', b64('d1:42:10:2.5')],
    ['a non-numeric cursor', b64('d1:42:10:x')],
    ['a hex cursor', b64('d1:42:10:0x1')],
    ['a version of 20 digits', b64(`d1:42:${'9'.repeat(20)}:2`)],
    ['a version past the bigint range', b64('d1:42:9223372036854775808:2')],
    ['a cursor of 16 digits', b64(`d1:42:10:${'9'.repeat(16)}`)],
  ])('rejects %s', (_label, token) => {
    const err = decodeError('42', token);
    expect(err.code).toBe('INVALID_SYNC_TOKEN');
    expect(err.extra).toEqual({ argument: 'sync_token' });
  });
});
