import { COMMENT_FIELDS, TASK_FIELDS } from '@doable/contracts-sync';
import type { JsonReads } from '@doable/sync-read';
import { objectJsonSql } from './field-json.sql';

/**
 * What api/v1's full sync has PostgreSQL write (ReadNeeds.json, issue #48): its tasks and
 * comments, the largest resources of an account, by the SQL twins of writeApiV1Item
 * (taskRowWriter) and writeNote (fieldRowWriter), made from the same field tables. Made at load:
 * a line the SQL could not write as its JavaScript writer does fails here.
 */
export const API_V1_JSON: JsonReads = {
  items: objectJsonSql(TASK_FIELDS, 'apiV1', 'taskRowWriter'),
  notes: objectJsonSql(COMMENT_FIELDS, 'apiV1', 'fieldRowWriter'),
};

/** The same for v9: the twins of writeV9Item and writeV9Note. */
export const V9_JSON: JsonReads = {
  items: objectJsonSql(TASK_FIELDS, 'v9', 'taskRowWriter'),
  notes: objectJsonSql(COMMENT_FIELDS, 'v9', 'fieldRowWriter'),
};
