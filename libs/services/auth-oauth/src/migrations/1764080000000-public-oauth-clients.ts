import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Public OAuth clients (assistants): registered by themselves (RFC 7591) or named by the URL of
 * their client metadata document, they have no owner among our users and no secret (they prove
 * themselves with PKCE). `registration` says how an application came to be.
 */
export class PublicOauthClients1764080000000 implements MigrationInterface {
  name = 'PublicOauthClients1764080000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE auth.oauth_apps ALTER COLUMN owner_id DROP NOT NULL`,
      `ALTER TABLE auth.oauth_apps ALTER COLUMN client_secret_hash DROP NOT NULL`,
      `ALTER TABLE auth.oauth_apps ADD COLUMN registration text NOT NULL DEFAULT 'console' CHECK (registration IN ('console', 'dynamic', 'metadata-document'))`,
      // A console application has an owner and a secret; a public one has neither.
      `ALTER TABLE auth.oauth_apps ADD CONSTRAINT oauth_apps_kind CHECK ((registration = 'console') = (owner_id IS NOT NULL AND client_secret_hash IS NOT NULL))`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DELETE FROM auth.oauth_apps WHERE registration <> 'console'`,
      `ALTER TABLE auth.oauth_apps DROP CONSTRAINT oauth_apps_kind`,
      `ALTER TABLE auth.oauth_apps DROP COLUMN registration`,
      `ALTER TABLE auth.oauth_apps ALTER COLUMN client_secret_hash SET NOT NULL`,
      `ALTER TABLE auth.oauth_apps ALTER COLUMN owner_id SET NOT NULL`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
