import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * This service's copy of the collaboration notification settings of the users who changed them
 * (sync's notification-settings-changed event, with their address and language; the address
 * follows auth's email-changed event). A user without a row has the defaults, which mail
 * nothing. `version` is the change's: an older event never overwrites a newer copy.
 */
export class MailPreferences1764090000500 implements MigrationInterface {
  name = 'MailPreferences1764090000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE notifications.mail_preferences (
      user_id bigint PRIMARY KEY,
      email text NOT NULL,
      lang text NOT NULL,
      settings jsonb NOT NULL,
      version bigint NOT NULL
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notifications.mail_preferences`);
  }
}
