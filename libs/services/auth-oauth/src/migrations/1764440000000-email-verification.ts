import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An address belongs to whoever proves it (issue #44): `email_verified_at` says when the account's
 * address was proven (a confirmation link used, a provider-verified sign-on that made the account,
 * or the operator's vouching). Rows from before stay NULL: nobody proved those addresses. Expand
 * only: the previous release keeps running beside it (it never reads the column; the accounts it
 * makes are unverified, as its sign-ups were never proven). Mailed links gain two kinds: the
 * sign-up's confirmation and the single sign-on's link to an unverified account (whose provider
 * identity the link row carries).
 */
export class EmailVerification1764440000000 implements MigrationInterface {
  name = 'EmailVerification1764440000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `ALTER TABLE auth.accounts ADD COLUMN email_verified_at timestamptz`,
      `ALTER TABLE auth.account_links DROP CONSTRAINT account_links_kind_check`,
      `ALTER TABLE auth.account_links ADD CONSTRAINT account_links_kind_check CHECK (kind IN ('password-reset', 'email-change', 'email-verify', 'sso-link', 'sso-link-mail'))`,
      `ALTER TABLE auth.account_links ADD COLUMN sso_provider_id text, ADD COLUMN sso_issuer text, ADD COLUMN sso_subject text`,
      `ALTER TABLE auth.account_links ADD CONSTRAINT account_links_sso_identity CHECK ((kind IN ('sso-link', 'sso-link-mail')) = (sso_issuer IS NOT NULL AND sso_subject IS NOT NULL AND sso_provider_id IS NOT NULL))`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `DELETE FROM auth.account_links WHERE kind IN ('email-verify', 'sso-link', 'sso-link-mail')`,
      `ALTER TABLE auth.account_links DROP CONSTRAINT account_links_sso_identity`,
      `ALTER TABLE auth.account_links DROP COLUMN sso_provider_id, DROP COLUMN sso_issuer, DROP COLUMN sso_subject`,
      `ALTER TABLE auth.account_links DROP CONSTRAINT account_links_kind_check`,
      `ALTER TABLE auth.account_links ADD CONSTRAINT account_links_kind_check CHECK (kind IN ('password-reset', 'email-change'))`,
      `ALTER TABLE auth.accounts DROP COLUMN email_verified_at`,
    ]) {
      await queryRunner.query(sql);
    }
  }
}
