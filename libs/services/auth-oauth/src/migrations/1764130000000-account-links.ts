import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mailed single-use links (issue #33): password reset and email-change confirmation. Only the
 * sha256 of each link's secret is kept, so a copy of the table opens no account. `used_at` ends a
 * link (used, or superseded by a later one); `expires_at` bounds it. `link_requests` counts the
 * requests per typed address (hashed too: an address without an account is not kept in clear),
 * which rate-limits the mail a stranger can cause to one address.
 */
export class AccountLinks1764130000000 implements MigrationInterface {
  name = 'AccountLinks1764130000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE TABLE auth.account_links (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('password-reset', 'email-change')),
        token_hash text NOT NULL UNIQUE,
        new_email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        CHECK ((kind = 'email-change') = (new_email IS NOT NULL))
      )`,
      `CREATE INDEX account_links_user ON auth.account_links (user_id, kind, created_at)`,
      `CREATE TABLE auth.link_requests (
        kind text NOT NULL,
        address_hash text NOT NULL,
        requested_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX link_requests_address ON auth.link_requests (kind, address_hash, requested_at)`,
      `CREATE INDEX link_requests_requested ON auth.link_requests (requested_at)`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth.link_requests`);
    await queryRunner.query(`DROP TABLE auth.account_links`);
  }
}
