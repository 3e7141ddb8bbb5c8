import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The user settings resource and the goal fields the user object shows, stored on the user's
 * row (one lock, one version). Goals' ignore_days is `days_off`, as the public service shows it.
 * `settings_version` is when user_settings last changed, so incremental syncs carry it only then;
 * `version` moves too, because a settings change is a change of the user.
 */
export class UserSettings1732190001000 implements MigrationInterface {
  name = 'UserSettings1732190001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users
      ADD COLUMN reminder_push boolean NOT NULL DEFAULT true,
      ADD COLUMN reminder_desktop boolean NOT NULL DEFAULT true,
      ADD COLUMN reminder_email boolean NOT NULL DEFAULT true,
      ADD COLUMN completed_sound_desktop boolean NOT NULL DEFAULT true,
      ADD COLUMN completed_sound_mobile boolean NOT NULL DEFAULT true,
      ADD COLUMN reset_recurring_subtasks boolean NOT NULL DEFAULT false,
      ADD COLUMN vacation_mode boolean NOT NULL DEFAULT false,
      ADD COLUMN karma_disabled boolean NOT NULL DEFAULT false,
      ADD COLUMN beta smallint NOT NULL DEFAULT 0,
      ADD COLUMN settings_version bigint NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users
      DROP COLUMN settings_version,
      DROP COLUMN beta,
      DROP COLUMN karma_disabled,
      DROP COLUMN vacation_mode,
      DROP COLUMN reset_recurring_subtasks,
      DROP COLUMN completed_sound_mobile,
      DROP COLUMN completed_sound_desktop,
      DROP COLUMN reminder_email,
      DROP COLUMN reminder_desktop,
      DROP COLUMN reminder_push`);
  }
}
