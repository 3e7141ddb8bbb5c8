import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether the user's address is proven (auth-oauth's word, issue #44: its userCreated and
 * email-verified events): invitations by address and workspace domains match only proven
 * addresses. Existing users stay unproven, as auth-oauth's own rows do.
 */
export class EmailVerified1764440000100 implements MigrationInterface {
  name = 'EmailVerified1764440000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users ADD COLUMN email_verified boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.users DROP COLUMN email_verified`);
  }
}
