import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks per OAuth application: the callback URL, the events it wants and the object shape
 * version. Signing needs the client secret itself, so a copy encrypted with AES-256-GCM is kept
 * beside the hash (written when a secret is created or reset). The key is APP_SECRET_KEY when set,
 * or one made here once, so every replica agrees (as uploads' URL key).
 */
export class AppWebhooks1764070000000 implements MigrationInterface {
  name = 'AppWebhooks1764070000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE auth.oauth_apps
         ADD COLUMN client_secret_encrypted text,
         ADD COLUMN webhook_callback_url text,
         ADD COLUMN webhook_events text[] NOT NULL DEFAULT '{}',
         ADD COLUMN webhook_version text NOT NULL DEFAULT '1' CHECK (webhook_version IN ('1', '9'))`,
      `CREATE TABLE auth.secret_key (id smallint PRIMARY KEY CHECK (id = 1), secret text NOT NULL)`,
      `INSERT INTO auth.secret_key (id, secret) VALUES (1, encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'))`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth.secret_key`);
    await queryRunner.query(
      `ALTER TABLE auth.oauth_apps DROP COLUMN client_secret_encrypted, DROP COLUMN webhook_callback_url, DROP COLUMN webhook_events, DROP COLUMN webhook_version`,
    );
  }
}
