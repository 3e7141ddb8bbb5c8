import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The collaboration notification settings (users/notification-settings.ts): the choices a user
 * made, per notification type and service, on the user's row like the other settings (one
 * lock, and `settings_version` carries them to the next sync). Empty: every default.
 */
export class NotificationSettings1732190002540 implements MigrationInterface {
  name = 'NotificationSettings1732190002540';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users ADD COLUMN notification_settings jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users DROP COLUMN notification_settings`);
  }
}
