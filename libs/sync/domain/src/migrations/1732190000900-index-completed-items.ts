import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Completed history reads checked tasks newest first, per project: one partial index for that. */
export class IndexCompletedItems1732190000900 implements MigrationInterface {
  name = 'IndexCompletedItems1732190000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX items_completed ON sync.items (project_id, completed_at DESC, id DESC) WHERE checked AND NOT is_deleted`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sync.items_completed`);
  }
}
