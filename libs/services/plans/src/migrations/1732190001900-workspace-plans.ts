import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workspace plans, next to the user plans: the workspace catalogue the running system uses
 * (written at start from PLANS_FILE's `workspace_plans` or the built-in ones), and each
 * workspace's assignment (`npm run cli -- set-workspace-plan`). A workspace with no row is on the
 * default workspace plan. Revisions come from the same plans.plan_revision sequence as the
 * users', so consumers can order every announcement of this service alike.
 */
export class WorkspacePlans1732190001900 implements MigrationInterface {
  name = 'WorkspacePlans1732190001900';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE plans.workspace_catalogue (
        plan_name text PRIMARY KEY,
        position integer NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        plan_type text NOT NULL CHECK (plan_type IN ('STARTER', 'BUSINESS')),
        -- The announced value: {plan_type, limits: {current, next}}.
        plan jsonb NOT NULL,
        digest text NOT NULL
      )`,
      `CREATE TABLE plans.workspace_plans (
        workspace_id bigint PRIMARY KEY,
        plan_id text NOT NULL,
        revision bigint NOT NULL DEFAULT 0,
        assigned_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX workspace_plans_plan ON plans.workspace_plans (plan_id)`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of ['DROP INDEX plans.workspace_plans_plan', 'DROP TABLE plans.workspace_plans', 'DROP TABLE plans.workspace_catalogue']) await queryRunner.query(sql);
  }
}
