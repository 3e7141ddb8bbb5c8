import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each user's plan limits as the plans service announced them (PlansEvents.userPlanChanged):
 * commands check limits against this copy, in their own transaction, and incremental syncs carry
 * `user_plan_limits` when `version` is past the token. `revision` is the plans service's, so a
 * late or repeated event never brings back an older plan. A user not announced yet (the moments
 * after sign-up) is on the catalogue's default plan, kept in sync.default_plan.
 */
export class PlanLimits1732190001700 implements MigrationInterface {
  name = 'PlanLimits1732190001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE sync.user_plans (
      user_id bigint PRIMARY KEY,
      limits jsonb NOT NULL,
      revision bigint NOT NULL,
      version bigint NOT NULL
    )`);
    // The catalogue's default plan (PlansEvents.defaultPlanChanged): one row.
    await queryRunner.query(`CREATE TABLE sync.default_plan (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      limits jsonb NOT NULL,
      revision bigint NOT NULL
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sync.default_plan');
    await queryRunner.query('DROP TABLE sync.user_plans');
  }
}
