import { hashToken } from '@doable/contracts-auth';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * An invitation's secret: 24 random bytes, which is what makes accepting it proof of having
 * received it. High entropy, so a fast hash is the right way to keep it (as for bearer tokens).
 */
export function newInvitationSecret(): { readonly secret: string; readonly hash: string } {
  const secret = randomBytes(24).toString('base64url');
  return { secret, hash: hashToken(secret) };
}

/** Whether the secret a client sent is the invitation's, compared in constant time. */
export function invitationSecretMatches(secret: string, storedHash: string): boolean {
  const sent = Buffer.from(hashToken(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return sent.length === stored.length && timingSafeEqual(sent, stored);
}
