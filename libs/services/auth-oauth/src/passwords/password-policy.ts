import { COMMON_PASSWORDS } from './common-passwords';

/** The tags of sync-interface §7.4 that a new password can fail with. */
export type PasswordProblem = 'PASSWORD_TOO_SHORT' | 'COMMON_PASSWORD' | 'PASSWORD_CONTAINS_EMAIL';

export const MIN_PASSWORD_LENGTH = 8;

/**
 * Why a password may not be used for this email, or undefined when it may. Length counts
 * characters (code points), not bytes; "containing the email" means the whole address or its
 * local part (when that is at least 3 characters), case-insensitively.
 */
export function passwordProblem(password: string, email: string): PasswordProblem | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'PASSWORD_TOO_SHORT';
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) return 'COMMON_PASSWORD';
  const address = email.trim().toLowerCase();
  const local = address.split('@')[0] ?? '';
  if (address && (lowered.includes(address) || (local.length >= 3 && lowered.includes(local)))) return 'PASSWORD_CONTAINS_EMAIL';
  return undefined;
}

/** A plausible email address (one @, a dot in the domain, no spaces), as the sign-up form accepts. */
export function isPlausibleEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}
