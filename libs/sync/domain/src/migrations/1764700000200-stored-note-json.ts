import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each comment's text as the api/v1 and v9 full syncs write it, kept by PostgreSQL in the
 * comment's row (issue #48, bench S3), as migration StoredTaskJson keeps the tasks': writing
 * 2,000 comments at read time was about 10 ms of PostgreSQL per full sync. A comment has no
 * member a read computes and its api/v1 and v9 texts are the same, so one column holds the whole
 * text but its closing brace (the reads append it: STORED_NOTE_JSON in @doable/sync-dialects). NULL where PostgreSQL cannot write the
 * comment as JavaScript would (an all-digit reaction key, a number JSON.parse rounds).
 *
 * A BEFORE INSERT OR UPDATE row trigger, for the reasons StoredTaskJson gives. The body is
 * noteJsonFunctionBody() of @doable/sync-dialects, written out and held to it by
 * stored-object-json.integration-spec.ts; the last statement fills the rows already there.
 */
const BODY = String.raw`
DECLARE
  note sync.notes := NEW;
BEGIN
  -- api_v1_json 72d544edfce072a8dc27a71f268420c9
  BEGIN
    NEW.api_v1_json := (format('{"id":%s', ('"' || note.id::text || '"')) || CASE WHEN NOT coalesce((note.item_id IS NULL), false) THEN ',"item_id":' || (CASE WHEN (note.item_id IS NULL) THEN 'null' ELSE ('"' || note.item_id::text || '"') END) ELSE '' END || CASE WHEN (note.item_id IS NULL) THEN ',"project_id":' || ('"' || note.project_id::text || '"') ELSE '' END || format(',"posted_uid":%s,"content":%s', ('"' || note.posted_uid::text || '"'), to_json(note.content)::text) || ',"file_attachment":' || (CASE WHEN (note.file_attachment IS NULL OR jsonb_typeof(note.file_attachment) = 'null') THEN 'null' ELSE (CASE WHEN jsonb_typeof(note.file_attachment) IN ('string', 'boolean', 'null') THEN (note.file_attachment)::text
      WHEN regexp_replace((note.file_attachment)::text, '("(?:[^"\\]|\\.)*"|[,:]) ?', '\1', 'g') !~ '[{,]"[0-9]+":' AND regexp_replace(regexp_replace((note.file_attachment)::text, '("(?:[^"\\]|\\.)*"|[,:]) ?', '\1', 'g'), '"(?:[^"\\]|\\.)*"', '', 'g') !~ '[0-9.]{16,}|\.[0-9]*0(?![0-9])|0\.000000' THEN regexp_replace((note.file_attachment)::text, '("(?:[^"\\]|\\.)*"|[,:]) ?', '\1', 'g') END) END) || format(',"uids_to_notify":%s', (CASE WHEN (note.uids_to_notify IS NULL) THEN 'null' ELSE to_json(note.uids_to_notify::text[])::text END)) || ',"reactions":' || (CASE WHEN ((jsonb_typeof(note.reactions) = 'null') OR (note.reactions IN ('{}'::jsonb, '[]'::jsonb))) THEN 'null' ELSE (CASE WHEN jsonb_typeof(note.reactions) IN ('string', 'boolean', 'null') THEN (note.reactions)::text
      WHEN regexp_replace((note.reactions)::text, '("(?:[^"\\]|\\.)*"|[,:]) ?', '\1', 'g') !~ '[{,]"[0-9]+":' AND regexp_replace(regexp_replace((note.reactions)::text, '("(?:[^"\\]|\\.)*"|[,:]) ?', '\1', 'g'), '"(?:[^"\\]|\\.)*"', '', 'g') !~ '[0-9.]{16,}|\.[0-9]*0(?![0-9])|0\.000000' THEN regexp_replace((note.reactions)::text, '("(?:[^"\\]|\\.)*"|[,:]) ?', '\1', 'g') END) END) || format(',"is_deleted":%s,"posted_at":%s', note.is_deleted::text, ('"' || to_char(note.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"000Z"') || '"')));
  EXCEPTION WHEN OTHERS THEN
    NEW.api_v1_json := NULL;
  END;
  RETURN NEW;
END
`;

export class StoredNoteJson1764700000200 implements MigrationInterface {
  name = 'StoredNoteJson1764700000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.notes ADD COLUMN api_v1_json text`);
    await queryRunner.query(`CREATE FUNCTION sync.notes_stored_json() RETURNS trigger LANGUAGE plpgsql AS $notes_stored_json$${BODY}$notes_stored_json$`);
    await queryRunner.query(`CREATE TRIGGER notes_stored_json BEFORE INSERT OR UPDATE ON sync.notes FOR EACH ROW EXECUTE FUNCTION sync.notes_stored_json()`);
    await queryRunner.query(`UPDATE sync.notes SET api_v1_json = NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER notes_stored_json ON sync.notes`);
    await queryRunner.query(`DROP FUNCTION sync.notes_stored_json()`);
    await queryRunner.query(`ALTER TABLE sync.notes DROP COLUMN api_v1_json`);
  }
}
