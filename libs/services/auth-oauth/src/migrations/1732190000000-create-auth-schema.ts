import { messagingTablesDown, messagingTablesUp } from '@doable/shared-database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuthSchema1732190000000 implements MigrationInterface {
  name = 'CreateAuthSchema1732190000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE auth.accounts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        full_name text NOT NULL,
        password_hash text,
        timezone text NOT NULL DEFAULT 'UTC',
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX accounts_email_unique ON auth.accounts (lower(email))`,
      `CREATE TABLE auth.access_tokens (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        kind text NOT NULL CHECK (kind IN ('personal', 'oauth')),
        app_id bigint,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz
      )`,
      // One live personal token per user: resetting it revokes the old one in the same transaction.
      `CREATE UNIQUE INDEX access_tokens_one_personal ON auth.access_tokens (user_id) WHERE kind = 'personal' AND revoked_at IS NULL`,
      ...messagingTablesUp('auth'),
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [...messagingTablesDown('auth'), 'DROP TABLE auth.access_tokens', 'DROP TABLE auth.accounts']) await queryRunner.query(sql);
  }
}
