import { randomBytes } from 'node:crypto';
import { SCOPES } from '@doable/contracts-common';

/** A personal API token: 40 hex characters, as clients check (`/^[0-9A-Fa-f]{40}$/`). */
export function generatePersonalToken(): string {
  return randomBytes(20).toString('hex');
}

/** A personal token acts for its owner with full access. */
export const PERSONAL_TOKEN_SCOPES = [...SCOPES];
