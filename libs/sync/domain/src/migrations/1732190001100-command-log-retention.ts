import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Lets the command-log retention find expired entries without scanning the whole log. */
export class CommandLogRetention1732190001100 implements MigrationInterface {
  name = 'CommandLogRetention1732190001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX command_log_executed ON sync.command_log (executed_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sync.command_log_executed`);
  }
}
