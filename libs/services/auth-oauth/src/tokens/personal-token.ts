import { randomBytes } from 'node:crypto';
import { HOME_KEY_LENGTH, homeKey, SCOPES } from '@doable/contracts-common';

/**
 * An API token (personal or OAuth) for this user: 40 hex characters, as clients check
 * (`/^[0-9A-Fa-f]{40}$/`). The first 32 are random (128 bits, the secret); the last 8 are the
 * user's home key, for a balancer to send all of the user's requests to one gateway
 * (docs/operations/home-gateways.md). Stored hashed, like the rest of the token.
 */
export function generatePersonalToken(userId: string): string {
  return randomBytes((40 - HOME_KEY_LENGTH) / 2).toString('hex') + homeKey(userId);
}

/** A personal token acts for its owner with full access. */
export const PERSONAL_TOKEN_SCOPES = [...SCOPES];
