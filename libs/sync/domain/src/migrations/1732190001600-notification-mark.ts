import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A per-user count of live-notification deliveries (NotificationsEvents.delivered). A sync token
 * records the count it saw; a higher one opens the reader's gate for live notifications. It is
 * not a change version on purpose: taking a version outside a command could run ahead of a
 * version another transaction holds uncommitted, and a sync in between would then skip that
 * transaction's rows for good.
 */
export class NotificationMark1732190001600 implements MigrationInterface {
  name = 'NotificationMark1732190001600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users ADD COLUMN notification_mark bigint NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users DROP COLUMN notification_mark`);
  }
}
