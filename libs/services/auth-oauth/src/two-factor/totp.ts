import { randomInt } from 'node:crypto';
import { hashToken } from '@doable/contracts-auth';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ISSUER = 'Doable';
/** Steps either side of now that are accepted: clocks of phones drift. */
export const TOTP_WINDOW = 1;

function totp(secret: string, email = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A fresh 160-bit secret (RFC 4226's recommended length), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/Doable:<email>?secret=…&issuer=Doable` URI the QR code carries. */
export function otpauthUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/** The step (30-second counter) a time falls in. */
export function stepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** A code as typed: digits only once spaces are dropped (apps show "123 456"). */
export function normaliseTotpCode(code: string): string | undefined {
  const digits = code.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/**
 * The step whose code this is, within ±TOTP_WINDOW steps of `nowMs`, or undefined. The caller
 * refuses a step already used (replay) and records the one returned.
 */
export function matchingStep(secret: string, code: string, nowMs: number): number | undefined {
  const digits = normaliseTotpCode(code);
  if (!digits) return undefined;
  const delta = totp(secret).validate({ token: digits, timestamp: nowMs, window: TOTP_WINDOW });
  return delta === null ? undefined : stepAt(nowMs) + delta;
}

/** The code of a step (tests and nothing else compute codes on the server). */
export function codeAt(secret: string, nowMs: number): string {
  return totp(secret).generate({ timestamp: nowMs });
}

export const RECOVERY_CODE_COUNT = 10;
/** Crockford-style alphabet without look-alikes (no 0/O, 1/I/L). */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Ten codes of 10 characters (about 49 bits each), shown as `XXXXX-XXXXX`. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed (any case, with or without the dash and spaces), or undefined. */
export function normaliseRecoveryCode(code: string): string | undefined {
  const compact = code.replace(/[\s-]+/g, '').toUpperCase();
  return compact.length === 10 && [...compact].every((ch) => RECOVERY_ALPHABET.includes(ch)) ? compact : undefined;
}

/**
 * Stored as sha256 of the normalised code: the codes are random and long, so (as tokens) a
 * fast hash is enough; a slow password hash would only cost every log-in ten of them.
 */
export function hashRecoveryCode(normalised: string): string {
  return hashToken(`recovery:${normalised}`);
}
