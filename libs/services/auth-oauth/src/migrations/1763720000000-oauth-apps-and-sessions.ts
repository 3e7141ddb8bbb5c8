import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Browser sessions, OAuth applications and authorization codes. Session ids, client secrets and
 * codes are random and stored only as sha256 hashes, like access tokens.
 */
export class OauthAppsAndSessions1763720000000 implements MigrationInterface {
  name = 'OauthAppsAndSessions1763720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE auth.sessions (
        session_hash text PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX sessions_user ON auth.sessions (user_id)`,
      `CREATE TABLE auth.oauth_apps (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        owner_id bigint NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        name text NOT NULL,
        client_id text NOT NULL UNIQUE,
        client_secret_hash text NOT NULL,
        redirect_uris text[] NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
        token_limit integer CHECK (token_limit IS NULL OR token_limit >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX oauth_apps_owner ON auth.oauth_apps (owner_id)`,
      `CREATE TABLE auth.oauth_codes (
        code_hash text PRIMARY KEY,
        app_id bigint NOT NULL REFERENCES auth.oauth_apps (id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        scopes text[] NOT NULL,
        redirect_uri text,
        code_challenge text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      `ALTER TABLE auth.access_tokens ADD CONSTRAINT access_tokens_app_fk FOREIGN KEY (app_id) REFERENCES auth.oauth_apps (id) ON DELETE CASCADE`,
      `CREATE INDEX access_tokens_live_by_app ON auth.access_tokens (app_id) WHERE revoked_at IS NULL AND app_id IS NOT NULL`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'DROP INDEX auth.access_tokens_live_by_app',
      'ALTER TABLE auth.access_tokens DROP CONSTRAINT access_tokens_app_fk',
      'DROP TABLE auth.oauth_codes',
      'DROP TABLE auth.oauth_apps',
      'DROP TABLE auth.sessions',
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
