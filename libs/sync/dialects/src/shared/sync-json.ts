import { COMMENT_FIELDS, TASK_FIELDS } from '@doable/contracts-sync';
import type { JsonReads } from '@doable/sync-read';
import { objectJsonSql, splitObjectJsonSql } from './field-json.sql';
import { STORED_TASK_JSON, storedOrWholeSql } from './stored-task-json';

/** The task objects cut for storing (the trigger of migration StoredTaskJson writes the heads); undefined for a table that cannot be cut so. */
export const API_V1_TASK_SPLIT = splitObjectJsonSql(TASK_FIELDS, 'apiV1', 'taskRowWriter');
export const V9_TASK_SPLIT = splitObjectJsonSql(TASK_FIELDS, 'v9', 'taskRowWriter');

/**
 * What api/v1's full sync has PostgreSQL write (ReadNeeds.json, issue #48): its tasks and
 * comments, the largest resources of an account, by the SQL twins of writeApiV1Item
 * (taskRowWriter) and writeNote (fieldRowWriter), made from the same field tables. Made at load:
 * a line the SQL could not write as its JavaScript writer does fails here. Each task's text is
 * the one stored when it was written (sync.items.api_v1_json) with its comment count appended:
 * writing 5,000 tasks at read time was 60 of PostgreSQL's 86 ms per full sync (bench S3). A
 * table whose text cannot be cut so (a line after the comment count) is written whole per read.
 */
export const API_V1_JSON: JsonReads = {
  items: storedOrWholeSql(API_V1_TASK_SPLIT, STORED_TASK_JSON.apiV1, () => objectJsonSql(TASK_FIELDS, 'apiV1', 'taskRowWriter')),
  notes: objectJsonSql(COMMENT_FIELDS, 'apiV1', 'fieldRowWriter'),
};

/** The same for v9: the twins of writeV9Item and writeV9Note. */
export const V9_JSON: JsonReads = {
  items: storedOrWholeSql(V9_TASK_SPLIT, STORED_TASK_JSON.v9, () => objectJsonSql(TASK_FIELDS, 'v9', 'taskRowWriter')),
  notes: objectJsonSql(COMMENT_FIELDS, 'v9', 'fieldRowWriter'),
};
