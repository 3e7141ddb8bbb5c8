import { TASK_FIELDS } from '@doable/contracts-sync';
import { sqlLiteral } from '@doable/sync-domain';
import { STORED_DUE_DATE } from '@doable/sync-filter-language';
import { splitRestV2TaskJsonSql } from '../rest-v2/rest-v2-task-list.sql';
import { type SplitObjectSql } from '../shared/field-json.sql';
import { STORED_TASK_JSON, stampOf, TRIGGER_ROW } from '../shared/stored-task-json';
import { API_V1_TASK_SPLIT, V9_TASK_SPLIT } from '../shared/sync-json';

/**
 * The body of TASK_JSON_FUNCTION: the heads of the api/v1, v9 and REST v2 task texts, written by
 * the same renderers the reads used before (splitObjectJsonSql, splitRestV2TaskJsonSql) over the
 * row being written, into the columns STORED_TASK_JSON names. A migration holds it frozen;
 * stored-task-json.integration-spec.ts fails when this differs from what the newest migration
 * installed (a change here needs a migration that replaces the function and rewrites the rows).
 *
 * Each group of assignments follows its columns' stamps (stampOf), which the reads look for.
 * Written on `item`, a copy of NEW: a BEFORE trigger sees no generated column yet, so the copy's
 * due_date_text is computed here as its column computes it (STORED_DUE_DATE, migration
 * DueDateText). A text PostgreSQL fails to write (a zone it does not know, a date such as
 * February 30 that the stored shape allows) is left NULL rather than failing the write (the
 * reads then write the task in JavaScript, as they did when the same SQL failed a read).
 */
export function taskJsonFunctionBody(): string {
  // The head never reads the link (splitMembers puts it in the rest).
  const heads = (group: Array<[string, SplitObjectSql | undefined]>): Array<[string, SplitObjectSql]> =>
    group.map(([column, split]) => {
      if (!split) throw new Error(`the task table's ${column} text cannot be stored (a member the row holds follows one the read computes): move the line before them`);
      return [column, split];
    });
  const sync = heads([
    [STORED_TASK_JSON.apiV1, API_V1_TASK_SPLIT],
    [STORED_TASK_JSON.v9, V9_TASK_SPLIT],
  ]);
  const restV2 = heads([[STORED_TASK_JSON.restV2, splitRestV2TaskJsonSql(TASK_FIELDS, 'NULL::text')]]);
  // One exception block per group: a zone only the REST v2 due reads must not cost the full sync its stored texts.
  const guarded = (group: Array<[string, SplitObjectSql]>) => [
    ...group.map(([column, split]) => `  ${stampOf(column, split)}`),
    '  BEGIN',
    ...group.map(([column, split]) => `    NEW.${column} := ${split.head(TRIGGER_ROW)};`),
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
    ...guarded(restV2),
    '  RETURN NEW;',
    'END',
    '',
  ].join('\n');
}
