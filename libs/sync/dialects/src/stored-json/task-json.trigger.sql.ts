import { TASK_FIELDS } from '@doable/contracts-sync';
import { sqlLiteral } from '@doable/sync-domain';
import { STORED_DUE_DATE } from '@doable/sync-filter-language';
import { splitRestV2TaskJsonSql } from '../rest-v2/rest-v2-task-list.sql';
import { STORED_TASK_JSON } from '../shared/stored-task-json';
import { API_V1_TASK_SPLIT, V9_TASK_SPLIT } from '../shared/sync-json';

/** The function the trigger of migration StoredTaskJson runs for each task row written. */
export const TASK_JSON_FUNCTION = 'sync.items_stored_json';

/**
 * The body of TASK_JSON_FUNCTION: the heads of the api/v1, v9 and REST v2 task texts, written by
 * the same renderers the reads used before (splitObjectJsonSql, splitRestV2TaskJsonSql) over the
 * row being written, into the columns STORED_TASK_JSON names. A migration holds it frozen;
 * stored-task-json.integration-spec.ts fails when this differs from what the newest migration
 * installed (a change here needs a migration that replaces the function and rewrites the rows).
 *
 * Written on `item`, a copy of NEW: a BEFORE trigger sees no generated column yet, so the copy's
 * due_date_text is computed here as its column computes it (STORED_DUE_DATE, migration
 * DueDateText). A text PostgreSQL fails to write (a zone it does not know, a date such as
 * February 30 that the stored shape allows) is left NULL rather than failing the write (the
 * reads then write the task in JavaScript, as they did when the same SQL failed a read).
 */
export function taskJsonFunctionBody(): string {
  const row = { alias: 'item', computed: {} };
  // The head never reads the link (splitMembers puts it in the rest): a link here would fail the statement.
  const restV2 = splitRestV2TaskJsonSql(TASK_FIELDS, 'NULL::text');
  const sync: Array<[string, string]> = [
    [STORED_TASK_JSON.apiV1, API_V1_TASK_SPLIT.head(row)],
    [STORED_TASK_JSON.v9, V9_TASK_SPLIT.head(row)],
  ];
  const restV2Heads: Array<[string, string]> = [[STORED_TASK_JSON.restV2, restV2.head(row)]];
  // One exception block per group: a zone only the REST v2 due reads must not cost the full sync its stored texts.
  const guarded = (group: Array<[string, string]>) => [
    '  BEGIN',
    ...group.map(([column, sql]) => `    NEW.${column} := ${sql};`),
    '  EXCEPTION WHEN OTHERS THEN',
    ...group.map(([column]) => `    NEW.${column} := NULL;`),
    '  END;',
  ];
  return [
    '',
    'DECLARE',
    '  item sync.items := NEW;',
    'BEGIN',
    `  item.due_date_text := CASE WHEN (item.due ->> 'date') ~ ${sqlLiteral(STORED_DUE_DATE)} THEN item.due ->> 'date' END;`,
    ...guarded(sync),
    ...guarded(restV2Heads),
    '  RETURN NEW;',
    'END',
    '',
  ].join('\n');
}
