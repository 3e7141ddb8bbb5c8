import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reminders fire (reminder-firing/): each time reminder remembers the instant it last fired
 * for, so it fires once per due instant, across replicas and restarts; a task's next occurrence
 * (a later instant) fires it again. Only time reminders are ever looked at, so they have their
 * own partial index.
 */
export class ReminderFiring1732190002470 implements MigrationInterface {
  name = 'ReminderFiring1732190002470';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.reminders ADD COLUMN fired_for timestamptz`);
    await queryRunner.query(`CREATE INDEX reminders_time_pending ON sync.reminders (item_id) WHERE type IN ('absolute', 'relative') AND NOT is_deleted`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sync.reminders_time_pending`);
    await queryRunner.query(`ALTER TABLE sync.reminders DROP COLUMN fired_for`);
  }
}
