import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an upload needs beyond the first table: thumbnails and audio duration, the comment that uses it
 * (linked from sync's note events), the client address, and a soft delete (the row stays so a
 * deleted file's URL keeps answering 404 and the orphan sweep knows which bytes to remove).
 */
export class UploadRecords1732190002200 implements MigrationInterface {
  name = 'UploadRecords1732190002200';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE uploads.files
         ADD COLUMN thumbnails jsonb NOT NULL DEFAULT '{}'::jsonb,
         ADD COLUMN file_duration integer,
         ADD COLUMN item_id bigint,
         ADD COLUMN note_id bigint,
         ADD COLUMN project_id bigint,
         ADD COLUMN ip text,
         ADD COLUMN deleted_at timestamptz,
         ADD COLUMN bytes_removed boolean NOT NULL DEFAULT false`,
      // The key file URLs are signed with (HMAC of the upload id) when UPLOADS_URL_KEY is not
      // set: made once here, so every replica agrees and no URL secret is stored per file.
      `CREATE TABLE uploads.url_key (id smallint PRIMARY KEY CHECK (id = 1), secret text NOT NULL)`,
      `INSERT INTO uploads.url_key (id, secret) VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))`,
      `CREATE INDEX files_deleted_bytes ON uploads.files (deleted_at) WHERE deleted_at IS NOT NULL AND NOT bytes_removed`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE uploads.url_key`);
    await queryRunner.query(`DROP INDEX uploads.files_deleted_bytes`);
    await queryRunner.query(
      `ALTER TABLE uploads.files DROP COLUMN thumbnails, DROP COLUMN file_duration, DROP COLUMN item_id, DROP COLUMN note_id,
         DROP COLUMN project_id, DROP COLUMN ip, DROP COLUMN deleted_at, DROP COLUMN bytes_removed`,
    );
  }
}
