import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Doable's own web app (issue #35) as an OAuth client: `doable-web`, registration 'first-party'.
 * Public (no owner, no secret: it runs in a browser and could keep none), so its codes need PKCE
 * as every public client's do. No stored redirect URL: where the app lives is only known at run
 * time (PUBLIC_URL, or the origin a request came in on), so auth-oauth derives it
 * (oauth/first-party-client.ts). A console application cannot take this client id: console ids
 * are 32 hex characters.
 */
export class FirstPartyWebClient1764140000000 implements MigrationInterface {
  name = 'FirstPartyWebClient1764140000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE auth.oauth_apps DROP CONSTRAINT oauth_apps_registration_check`,
      `ALTER TABLE auth.oauth_apps ADD CONSTRAINT oauth_apps_registration_check CHECK (registration IN ('console', 'dynamic', 'metadata-document', 'first-party'))`,
      `INSERT INTO auth.oauth_apps (owner_id, name, client_id, client_secret_hash, redirect_uris, registration) VALUES (NULL, 'Doable', 'doable-web', NULL, '{}', 'first-party')
       ON CONFLICT (client_id) DO NOTHING`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      // Its tokens and codes go with it (ON DELETE CASCADE).
      `DELETE FROM auth.oauth_apps WHERE registration = 'first-party'`,
      `ALTER TABLE auth.oauth_apps DROP CONSTRAINT oauth_apps_registration_check`,
      `ALTER TABLE auth.oauth_apps ADD CONSTRAINT oauth_apps_registration_check CHECK (registration IN ('console', 'dynamic', 'metadata-document'))`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
