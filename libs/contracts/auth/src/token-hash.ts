import { createHash } from 'node:crypto';

/**
 * Bearer tokens are high-entropy random strings, so a fast hash is the right tool (a password
 * hash would only slow every request). Stored and compared as sha256 hex, never in the clear.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
