import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor log-in (TOTP, RFC 6238). One row per account that started enrolment: the secret,
 * sealed with AES-256-GCM under the key client secrets use (AppSecretBox), since the server must
 * compute codes; `enabled_at` is null until the user confirms a code. `last_step` is the last
 * step a code was accepted in (a code is refused in a step already used: replay). Failures are
 * counted per account and lock it for a while (`locked_until`). Recovery codes are stored as
 * sha256 hashes, each usable once.
 */
export class TwoFactor1764110000000 implements MigrationInterface {
  name = 'TwoFactor1764110000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE TABLE auth.two_factor (
        user_id bigint PRIMARY KEY REFERENCES auth.accounts (id) ON DELETE CASCADE,
        secret_sealed text NOT NULL,
        enabled_at timestamptz,
        last_step bigint,
        failures integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE auth.two_factor_recovery_codes (
        user_id bigint NOT NULL REFERENCES auth.two_factor (user_id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (user_id, code_hash)
      )`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth.two_factor_recovery_codes`);
    await queryRunner.query(`DROP TABLE auth.two_factor`);
  }
}
