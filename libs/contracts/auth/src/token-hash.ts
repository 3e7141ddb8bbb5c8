import { hash } from 'node:crypto';

/**
 * Bearer tokens are high-entropy random strings, so a fast hash is the right tool (a password
 * hash would only slow every request). Stored and compared as sha256 hex, never in the clear.
 * The one-shot `hash` (no Hash object): the gateway hashes the bearer of every request, and this
 * is a third of createHash's cost there.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
