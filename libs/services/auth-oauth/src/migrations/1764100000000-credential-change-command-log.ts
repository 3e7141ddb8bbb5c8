import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Sync API `user_update` credential changes this service has run, by user and command uuid,
 * with the email each answered: a command delivered again (sync resends a request whose replica
 * fell silent, and both copies reach here) changes the credentials once, so a late copy cannot
 * undo a change made after it. Kept COMMAND_LOG_RETENTION_DAYS, as sync keeps its own command
 * log; `executed_at` is indexed for that pruning.
 */
export class CredentialChangeCommandLog1764100000000 implements MigrationInterface {
  name = 'CredentialChangeCommandLog1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE TABLE auth.command_log (
        user_id bigint NOT NULL,
        uuid text NOT NULL,
        email text NOT NULL,
        executed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, uuid)
      )`,
      `CREATE INDEX command_log_executed ON auth.command_log (executed_at)`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth.command_log`);
  }
}
