import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Sync API commands this service has run, by user and uuid: a command delivered again (sync
 * resends a request whose replica fell silent, and both copies reach here) runs once, so a late
 * copy cannot undo a command that ran after it. Kept COMMAND_LOG_RETENTION_DAYS, as sync keeps
 * its own command log; `executed_at` is indexed for that pruning.
 */
export class LiveNotificationCommandLog1764090000200 implements MigrationInterface {
  name = 'LiveNotificationCommandLog1764090000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE TABLE notifications.command_log (
        user_id bigint NOT NULL,
        uuid text NOT NULL,
        executed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, uuid)
      )`,
      `CREATE INDEX command_log_executed ON notifications.command_log (executed_at)`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notifications.command_log`);
  }
}
