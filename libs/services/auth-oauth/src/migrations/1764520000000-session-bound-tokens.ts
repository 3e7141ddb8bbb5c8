import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The web app's tokens come from the browser session (issue #47: a person stays signed in across
 * tabs and restarts without the app keeping a token): `session_hash` names the session a token
 * was issued to, so ending the session (sign-out, log-out, a password reset) revokes its tokens.
 * Expand only: the previous release never reads the column and issues no such tokens.
 */
export class SessionBoundTokens1764520000000 implements MigrationInterface {
  name = 'SessionBoundTokens1764520000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `ALTER TABLE auth.access_tokens ADD COLUMN session_hash text`,
      `CREATE INDEX access_tokens_live_by_session ON auth.access_tokens (session_hash) WHERE session_hash IS NOT NULL AND revoked_at IS NULL`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of ['DROP INDEX auth.access_tokens_live_by_session', 'ALTER TABLE auth.access_tokens DROP COLUMN session_hash']) await queryRunner.query(sql);
  }
}
