import { messagingTablesDown, messagingTablesUp } from '@doable/shared-database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePlansSchema1732190000100 implements MigrationInterface {
  name = 'CreatePlansSchema1732190000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE plans.user_plans (
        user_id bigint PRIMARY KEY,
        plan_id text NOT NULL,
        assigned_at timestamptz NOT NULL DEFAULT now()
      )`,
      ...messagingTablesUp('plans'),
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [...messagingTablesDown('plans'), 'DROP TABLE plans.user_plans']) await queryRunner.query(sql);
  }
}
