import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily digest (services/sync daily-digest): the user's local day it was last sent for, so
 * a user is due once per local day whatever the scheduler's replicas and restarts. The partial
 * index keeps the scheduler's look to the users who turned the digest on (a few, off by default).
 */
export class DigestSentOn1764300000100 implements MigrationInterface {
  name = 'DigestSentOn1764300000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users ADD COLUMN digest_sent_on date`);
    await queryRunner.query(`CREATE INDEX users_daily_digest_idx ON sync.users (id) WHERE (notification_settings -> 'daily_digest' ->> 'email') = 'true'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sync.users_daily_digest_idx`);
    await queryRunner.query(`ALTER TABLE sync.users DROP COLUMN digest_sent_on`);
  }
}
