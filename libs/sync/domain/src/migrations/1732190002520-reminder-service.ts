import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery service a legacy client (v8, v7, v6) gave a reminder (`reminder_add` /
 * `reminder_update` `service`: email, mobile, push, and the default/no_default choices), kept so
 * it reads back as sent. NULL: none was given; the legacy writers render their default, `push`.
 */
export class ReminderService1732190002520 implements MigrationInterface {
  name = 'ReminderService1732190002520';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE sync.reminders ADD COLUMN service text CHECK (service IN ('default', 'email', 'mobile', 'push', 'no_default'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.reminders DROP COLUMN service`);
  }
}
