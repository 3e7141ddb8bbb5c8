import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A change sequence on live notifications: every insert and every state change (read, unread)
 * takes the next value, so a sync token's notification cursor finds changed notifications, not
 * only new ones.
 */
export class NotificationChangeSeq1732190001200 implements MigrationInterface {
  name = 'NotificationChangeSeq1732190001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE SEQUENCE notifications.change_seq`,
      `ALTER TABLE notifications.live_notifications ADD COLUMN seq bigint NOT NULL DEFAULT nextval('notifications.change_seq')`,
      `CREATE INDEX live_notifications_user_seq ON notifications.live_notifications (user_id, seq)`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `DROP INDEX notifications.live_notifications_user_seq`,
      `ALTER TABLE notifications.live_notifications DROP COLUMN seq`,
      `DROP SEQUENCE notifications.change_seq`,
    ]) {
      await queryRunner.query(sql);
    }
  }
}
