import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue the running system uses (written at start from PLANS_FILE or the built-in
 * plans), so the CLI and every replica read one definition; and a revision per assignment, which
 * the user-plan-changed events carry so consumers keep only the newest.
 */
export class PlanCatalogue1732190001700 implements MigrationInterface {
  name = 'PlanCatalogue1732190001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE plans.catalogue (
        plan_name text PRIMARY KEY,
        position integer NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        limits jsonb NOT NULL,
        digest text NOT NULL
      )`,
      `CREATE SEQUENCE plans.plan_revision`,
      `ALTER TABLE plans.user_plans ADD COLUMN revision bigint NOT NULL DEFAULT 0`,
      `CREATE INDEX user_plans_plan ON plans.user_plans (plan_id)`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'DROP INDEX plans.user_plans_plan',
      'ALTER TABLE plans.user_plans DROP COLUMN revision',
      'DROP SEQUENCE plans.plan_revision',
      'DROP TABLE plans.catalogue',
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
