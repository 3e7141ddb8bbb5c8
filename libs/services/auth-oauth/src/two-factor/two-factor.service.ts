import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { toString as qrSvg } from 'qrcode';
import { AppSecretBox } from '../secrets/app-secret-box';
import { hashRecoveryCode, matchingStep, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, otpauthUri } from './totp';

/** Wrong codes in a row (TOTP or recovery) before the account's second factor is locked. */
export const MAX_CODE_FAILURES = 5;
/** How long a lock lasts: a guesser gets 5 tries per 15 minutes, about 480 a day, of a million codes. */
export const LOCK_SECONDS = 15 * 60;

/** `ok`: accepted (and spent); `wrong`: refused and counted; `locked`: too many failures, nothing checked. */
export type CodeVerdict = 'ok' | 'wrong' | 'locked';

export interface Enrolment {
  readonly secret: string;
  readonly uri: string;
  /** The QR code of `uri` as an inline SVG (the pages' CSP allows no data: images). */
  readonly qrSvg: string;
}

async function enrolmentOf(secret: string, email: string): Promise<Enrolment> {
  const uri = otpauthUri(secret, email);
  return { secret, uri, qrSvg: await qrSvg(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
}

interface Row {
  secret_sealed: string;
  enabled: boolean;
}

interface ClaimedRow {
  secret_sealed: string;
  /** This try started the lock: refused, it answers `locked`. */
  last_try: boolean;
}

/** A try taken (its code may be compared), or refused before any look: locked, or nothing to check. */
type Attempt = { readonly kind: 'claimed'; readonly row: ClaimedRow; readonly refusal: Exclude<CodeVerdict, 'ok'> } | { readonly kind: 'locked' | 'wrong' };

/**
 * TOTP enrolment and verification for one account at a time. Secrets are sealed at rest with
 * the key client secrets use (AppSecretBox); codes and recovery codes are never logged, and
 * nothing here logs at all.
 */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly database: Database,
    private readonly box: AppSecretBox,
  ) {}

  async isEnabled(userId: string): Promise<boolean> {
    const rows = await this.database.query<Array<{ n: number }>>(`SELECT 1 AS n FROM auth.two_factor WHERE user_id = $1 AND enabled_at IS NOT NULL`, [userId]);
    return rows.length > 0;
  }

  /** How many recovery codes are left (shown on the settings page). */
  async recoveryCodesLeft(userId: string): Promise<number> {
    const [row] = await this.database.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM auth.two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL`, [userId]);
    return row?.n ?? 0;
  }

  /**
   * Starts (or restarts) enrolment: a new secret, not yet in force. Undefined when 2FA is
   * already on (turning it off comes first). The failure count and any lock are kept.
   */
  async startEnrolment(userId: string, email: string): Promise<Enrolment | undefined> {
    const secret = newTotpSecret();
    const sealed = await this.box.seal(secret);
    const rows = await this.database.query<Array<{ user_id: string }>>(
      `INSERT INTO auth.two_factor (user_id, secret_sealed) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET secret_sealed = excluded.secret_sealed, last_step = NULL WHERE auth.two_factor.enabled_at IS NULL
       RETURNING user_id::text`,
      [userId, sealed],
    );
    return rows.length === 0 ? undefined : enrolmentOf(secret, email);
  }

  /** The enrolment started and not yet confirmed, shown again after a wrong code. */
  async pendingEnrolment(userId: string, email: string): Promise<Enrolment | undefined> {
    const row = await this.row(userId);
    const secret = row && !row.enabled ? await this.box.open(row.secret_sealed) : undefined;
    return secret === undefined ? undefined : enrolmentOf(secret, email);
  }

  /**
   * Confirms a pending enrolment with a current code: 2FA is on from now, and the recovery
   * codes returned are shown once (only their hashes are kept).
   */
  async confirmEnrolment(userId: string, code: string, nowMs = Date.now()): Promise<{ verdict: CodeVerdict; recoveryCodes?: string[] }> {
    const attempt = await this.claimAttempt(userId, false);
    if (attempt.kind !== 'claimed') return { verdict: attempt.kind === 'locked' ? 'locked' : 'wrong' };
    const row = attempt.row;
    const secret = await this.box.open(row.secret_sealed);
    const step = secret === undefined ? undefined : matchingStep(secret, code, nowMs);
    if (step === undefined) return { verdict: attempt.refusal };
    const codes = newRecoveryCodes();
    const confirmed = await this.database.transaction(async (tx) => {
      const enabled = await tx.manager.query<Array<{ user_id: string }>>(
        `WITH u AS (UPDATE auth.two_factor SET enabled_at = now(), last_step = $2, failures = 0, locked_until = NULL
                     WHERE user_id = $1 AND enabled_at IS NULL AND secret_sealed = $3 RETURNING user_id) SELECT user_id::text FROM u`,
        [userId, step, row.secret_sealed],
      );
      if (enabled.length === 0) return false;
      await tx.manager.query(`DELETE FROM auth.two_factor_recovery_codes WHERE user_id = $1`, [userId]);
      await tx.manager.query(`INSERT INTO auth.two_factor_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`, [
        userId,
        codes.map((code) => hashRecoveryCode(normaliseRecoveryCode(code)!)),
      ]);
      return true;
    });
    return confirmed ? { verdict: 'ok', recoveryCodes: codes } : { verdict: attempt.refusal };
  }

  /**
   * Checks a second factor of an enrolled account: a TOTP code within ±1 step not from a step
   * already used, or an unused recovery code (spent now). Every refusal counts towards the lock.
   */
  async verify(userId: string, code: string, nowMs = Date.now()): Promise<CodeVerdict> {
    const attempt = await this.claimAttempt(userId, true);
    if (attempt.kind !== 'claimed') return attempt.kind;
    const secret = await this.box.open(attempt.row.secret_sealed);
    const step = secret === undefined ? undefined : matchingStep(secret, code, nowMs);
    if (step !== undefined) {
      // Only a later step than the last accepted one: a code seen (or phished) once is spent.
      const spent = await this.database.query<Array<{ user_id: string }>>(
        `WITH u AS (UPDATE auth.two_factor SET last_step = $2, failures = 0, locked_until = NULL
                     WHERE user_id = $1 AND enabled_at IS NOT NULL AND (last_step IS NULL OR last_step < $2) RETURNING user_id) SELECT user_id::text FROM u`,
        [userId, step],
      );
      return spent.length > 0 ? 'ok' : attempt.refusal;
    }
    const recovery = normaliseRecoveryCode(code);
    if (recovery !== undefined) {
      const used = await this.database.query<Array<{ user_id: string }>>(
        `WITH u AS (UPDATE auth.two_factor_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id)
         SELECT user_id::text FROM u`,
        [userId, hashRecoveryCode(recovery)],
      );
      if (used.length > 0) {
        await this.database.query(`UPDATE auth.two_factor SET failures = 0, locked_until = NULL WHERE user_id = $1`, [userId]);
        return 'ok';
      }
    }
    return attempt.refusal;
  }

  /** Turns 2FA off with a current code or a recovery code; the secret and codes are deleted. */
  async disable(userId: string, code: string, nowMs = Date.now()): Promise<CodeVerdict> {
    const verdict = await this.verify(userId, code, nowMs);
    if (verdict === 'ok') await this.database.query(`DELETE FROM auth.two_factor WHERE user_id = $1`, [userId]);
    return verdict;
  }

  private async row(userId: string): Promise<Row | undefined> {
    const [row] = await this.database.query<Row[]>(`SELECT secret_sealed, enabled_at IS NOT NULL AS enabled FROM auth.two_factor WHERE user_id = $1`, [userId]);
    return row;
  }

  /**
   * Takes one try before any code is compared: counts it as a failure and reads the lock in one
   * statement, so a burst of parallel codes gets at most MAX_CODE_FAILURES looks however the
   * requests interleave (the row is locked by the UPDATE; a try while the lock holds changes
   * nothing and is refused). The MAX_CODE_FAILURES-th try starts the lock at once; that try is
   * still checked, and a right code (every success) clears the count and the lock. The first
   * try after a lock ran out starts a new count.
   */
  private async claimAttempt(userId: string, enrolled: boolean): Promise<Attempt> {
    const [row] = await this.database.query<ClaimedRow[]>(
      `WITH u AS (UPDATE auth.two_factor
                     SET failures = CASE WHEN locked_until IS NULL THEN failures + 1 ELSE 1 END,
                         locked_until = CASE WHEN (CASE WHEN locked_until IS NULL THEN failures + 1 ELSE 1 END) >= $2
                                             THEN now() + make_interval(secs => $3) END
                   WHERE user_id = $1 AND (enabled_at IS NOT NULL) = $4 AND (locked_until IS NULL OR locked_until <= now())
                   RETURNING secret_sealed, locked_until IS NOT NULL AS last_try)
       SELECT secret_sealed, last_try FROM u`,
      [userId, MAX_CODE_FAILURES, LOCK_SECONDS, enrolled],
    );
    if (row) return { kind: 'claimed', row, refusal: row.last_try ? 'locked' : 'wrong' };
    const [state] = await this.database.query<Array<{ locked: boolean }>>(
      `SELECT coalesce(locked_until > now(), false) AS locked FROM auth.two_factor WHERE user_id = $1 AND (enabled_at IS NOT NULL) = $2`,
      [userId, enrolled],
    );
    return { kind: state?.locked ? 'locked' : 'wrong' };
  }
}
