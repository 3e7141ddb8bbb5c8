import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The key push tokens (the credential in the user object's `websocket_url`) are signed with:
 * made once here, so every sync replica agrees, and no push token is stored per user.
 */
export class PushKey1732190002410 implements MigrationInterface {
  name = 'PushKey1732190002410';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE sync.push_key (id smallint PRIMARY KEY CHECK (id = 1), secret text NOT NULL)`);
    await queryRunner.query(`INSERT INTO sync.push_key (id, secret) VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sync.push_key`);
  }
}
