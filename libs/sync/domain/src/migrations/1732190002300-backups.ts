import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automatic backups (public-api-facts §1.4 `backups/get`): one row per ZIP kept in the blob
 * store, and when each account's next one is due. `next_at` is also how an operator asks for
 * one now (`npm run cli -- backup --email`): the scheduler takes due rows with SKIP LOCKED, so
 * replicas of sync share the work and never make the same backup twice.
 */
export class Backups1732190002300 implements MigrationInterface {
  name = 'Backups1732190002300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE sync.backups (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES sync.users (id) ON DELETE CASCADE,
      version text NOT NULL,
      blob_key text NOT NULL UNIQUE,
      size bigint NOT NULL CHECK (size >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, version)
    )`);
    await queryRunner.query(`CREATE INDEX backups_created ON sync.backups (created_at)`);
    await queryRunner.query(`CREATE TABLE sync.backup_schedule (
      user_id bigint PRIMARY KEY REFERENCES sync.users (id) ON DELETE CASCADE,
      next_at timestamptz NOT NULL,
      requested boolean NOT NULL DEFAULT false
    )`);
    await queryRunner.query(`CREATE INDEX backup_schedule_due ON sync.backup_schedule (next_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sync.backup_schedule');
    await queryRunner.query('DROP TABLE sync.backups');
  }
}
