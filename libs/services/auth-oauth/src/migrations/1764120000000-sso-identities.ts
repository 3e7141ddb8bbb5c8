import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on (OpenID Connect). `sso_identities`: who a provider's person is here, by the
 * pair OpenID Connect makes stable, (issuer, subject); an account has at most one identity per
 * issuer. `sso_logins`: a sign-in under way, from the redirect to the provider until its
 * callback, keyed by the sha256 of the browser's random cookie (the cookie alone binds it to
 * the browser that started it); its PKCE verifier, nonce and state are single-use and expire
 * in minutes.
 */
export class SsoIdentities1764120000000 implements MigrationInterface {
  name = 'SsoIdentities1764120000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE TABLE auth.sso_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id bigint NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        provider_id text NOT NULL,
        linked_at timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject),
        UNIQUE (user_id, issuer)
      )`,
      `CREATE TABLE auth.sso_logins (
        login_hash text PRIMARY KEY,
        provider_id text NOT NULL,
        state text NOT NULL,
        nonce text NOT NULL,
        code_verifier text NOT NULL,
        redirect_uri text NOT NULL,
        next text,
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX sso_logins_expires ON auth.sso_logins (expires_at)`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth.sso_logins`);
    await queryRunner.query(`DROP TABLE auth.sso_identities`);
  }
}
