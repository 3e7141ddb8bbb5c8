import type { ObjectJsonSql, RowSql } from '@doable/sync-domain';
import type { SplitObjectSql } from './field-json.sql';

/**
 * The columns of sync.items where PostgreSQL keeps each task's text as a dialect writes it, up to
 * the members a read computes (SplitObjectSql's head; migration StoredTaskJson, whose trigger
 * writes them whenever a task row is written). NULL where PostgreSQL cannot write the task as
 * JavaScript would: the read then leaves the task to the JavaScript writer, as before.
 */
export const STORED_TASK_JSON = { apiV1: 'api_v1_json', v9: 'v9_json', restV2: 'rest_v2_json' } as const;

/** A dialect's task text as a read gives it: the stored head, then the members the read computes. */
export function storedObjectJsonSql(split: SplitObjectSql, column: string): ObjectJsonSql {
  return (row: RowSql) => `(${row.alias}.${column} || ${split.rest(row)})`;
}
