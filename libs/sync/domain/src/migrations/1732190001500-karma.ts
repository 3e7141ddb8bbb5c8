import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Karma and goals (the rule is in stats/karma.ts): the user's karma, the direction and size of
 * its last change, the highest level reached (a level is announced once), and the day and week
 * whose goal was last reached (a goal is announced once per period).
 * Goals count the user's completions of today and this week on every completion: an index on
 * the user's completed tasks by completion time keeps that a short range scan (the stats'
 * per-day counts use it too).
 */
export class Karma1732190001500 implements MigrationInterface {
  name = 'Karma1732190001500';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `ALTER TABLE sync.users
         ADD COLUMN karma integer NOT NULL DEFAULT 0 CHECK (karma >= 0),
         ADD COLUMN karma_trend text NOT NULL DEFAULT 'none' CHECK (karma_trend IN ('up', 'down', 'none')),
         ADD COLUMN karma_last_change integer NOT NULL DEFAULT 0,
         ADD COLUMN karma_level smallint NOT NULL DEFAULT 1,
         ADD COLUMN daily_goal_reached_on date,
         ADD COLUMN weekly_goal_reached_on date`,
      `CREATE INDEX items_user_completed ON sync.items (user_id, completed_at) WHERE checked AND NOT is_deleted`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `DROP INDEX sync.items_user_completed`,
      `ALTER TABLE sync.users
         DROP COLUMN weekly_goal_reached_on,
         DROP COLUMN daily_goal_reached_on,
         DROP COLUMN karma_level,
         DROP COLUMN karma_last_change,
         DROP COLUMN karma_trend,
         DROP COLUMN karma`,
    ]) {
      await queryRunner.query(sql);
    }
  }
}
