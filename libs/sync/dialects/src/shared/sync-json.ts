import { COMMENT_FIELDS, TASK_FIELDS } from '@doable/contracts-sync';
import type { JsonReads } from '@doable/sync-read';
import { objectJsonSql, splitObjectJsonSql } from './field-json.sql';
import { STORED_NOTE_JSON, STORED_TASK_JSON, storedOrWholeSql } from './stored-object-json';

/** The task and comment objects cut for storing (the triggers of migrations StoredTaskJson and StoredNoteJson write the heads); undefined for a table that cannot be cut so. */
export const API_V1_TASK_SPLIT = splitObjectJsonSql(TASK_FIELDS, 'apiV1', 'taskRowWriter');
export const V9_TASK_SPLIT = splitObjectJsonSql(TASK_FIELDS, 'v9', 'taskRowWriter');
export const API_V1_NOTE_SPLIT = splitObjectJsonSql(COMMENT_FIELDS, 'apiV1', 'fieldRowWriter');
export const V9_NOTE_SPLIT = splitObjectJsonSql(COMMENT_FIELDS, 'v9', 'fieldRowWriter');

/**
 * What api/v1's full sync has PostgreSQL write (ReadNeeds.json, issue #48): its tasks and
 * comments, the largest resources of an account, by the SQL twins of writeApiV1Item
 * (taskRowWriter) and writeNote (fieldRowWriter), made from the same field tables. Made at load:
 * a line the SQL could not write as its JavaScript writer does fails here. Each task's text is
 * the one stored when it was written (sync.items.api_v1_json) with its comment count appended:
 * writing 5,000 tasks at read time was 60 of PostgreSQL's 86 ms per full sync (bench S3). A
 * table whose text cannot be cut so (a line after the comment count) is written whole per read.
 * The comments the same way (sync.notes.api_v1_json, nothing appended but the closing brace).
 */
export const API_V1_JSON: JsonReads = {
  items: storedOrWholeSql(STORED_TASK_JSON, STORED_TASK_JSON.columns.apiV1, API_V1_TASK_SPLIT, () => objectJsonSql(TASK_FIELDS, 'apiV1', 'taskRowWriter')),
  notes: storedOrWholeSql(STORED_NOTE_JSON, STORED_NOTE_JSON.columns.apiV1, API_V1_NOTE_SPLIT, () => objectJsonSql(COMMENT_FIELDS, 'apiV1', 'fieldRowWriter')),
};

/** The same for v9: the twins of writeV9Item and writeV9Note. */
export const V9_JSON: JsonReads = {
  items: storedOrWholeSql(STORED_TASK_JSON, STORED_TASK_JSON.columns.v9, V9_TASK_SPLIT, () => objectJsonSql(TASK_FIELDS, 'v9', 'taskRowWriter')),
  // v9's comment is api/v1's (one stored column): the stamp, made from v9's own SQL, holds it to that.
  notes: storedOrWholeSql(STORED_NOTE_JSON, STORED_NOTE_JSON.columns.apiV1, V9_NOTE_SPLIT, () => objectJsonSql(COMMENT_FIELDS, 'v9', 'fieldRowWriter')),
};
