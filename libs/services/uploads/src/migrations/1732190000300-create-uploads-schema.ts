import { messagingTablesDown, messagingTablesUp } from '@doable/shared-database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUploadsSchema1732190000300 implements MigrationInterface {
  name = 'CreateUploadsSchema1732190000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE uploads.files (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL,
        file_name text NOT NULL,
        file_size bigint NOT NULL CHECK (file_size >= 0),
        file_type text NOT NULL,
        storage_key text NOT NULL UNIQUE,
        upload_state text NOT NULL DEFAULT 'pending' CHECK (upload_state IN ('pending', 'completed')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX files_user ON uploads.files (user_id, id DESC)`,
      ...messagingTablesUp('uploads'),
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [...messagingTablesDown('uploads'), 'DROP TABLE uploads.files']) await queryRunner.query(sql);
  }
}
