import { TASK_FIELDS } from '@doable/contracts-sync';
import { sqlLiteral } from '@doable/sync-domain';
import { STORED_DUE_DATE } from '@doable/sync-filter-language';
import { splitRestV2TaskJsonSql } from './rest-v2/rest-v2-task-list.sql';
import { type SplitObjectSql } from './shared/field-json.sql';
import { STORED_NOTE_JSON, STORED_TASK_JSON, type StoredJsonTable, stampOf } from './shared/stored-object-json';
import { API_V1_NOTE_SPLIT, API_V1_TASK_SPLIT, V9_NOTE_SPLIT, V9_TASK_SPLIT } from './shared/sync-json';

/** One group of a body: columns written together, and left NULL together when PostgreSQL fails to write one. */
type Group = ReadonlyArray<readonly [string, SplitObjectSql | undefined]>;

/**
 * A trigger function's body: for each group, its columns' stamps (stampOf, which the reads look
 * for), then its heads written by the read path's renderers over `table.row`, a copy of NEW, in
 * an exception block: a text PostgreSQL fails to write is left NULL rather than failing the write
 * (the reads then write the row in JavaScript, as they did when the same SQL failed a read).
 * `prepare` are statements on the copy before the heads. No head holds a sub-query, so PL/pgSQL
 * evaluates each as a simple expression (about 7 µs a text, not 40: jsonbTextSql).
 */
function functionBody(table: StoredJsonTable, type: string, prepare: readonly string[], groups: readonly Group[]): string {
  const guarded = (group: Group) => {
    const heads = group.map(([column, split]) => {
      if (!split) throw new Error(`${table.fn}: the ${column} text cannot be stored (a member the row holds follows one the read computes): move the line before them`);
      return [column, split] as const;
    });
    return [
      ...heads.map(([column, split]) => `  ${stampOf(table, column, split)}`),
      '  BEGIN',
      ...heads.map(([column, split]) => `    NEW.${column} := ${split.head(table.row)};`),
      '  EXCEPTION WHEN OTHERS THEN',
      ...heads.map(([column]) => `    NEW.${column} := NULL;`),
      '  END;',
    ];
  };
  return ['', 'DECLARE', `  ${table.row.alias} ${type} := NEW;`, 'BEGIN', ...prepare, ...groups.flatMap(guarded), '  RETURN NEW;', 'END', ''].join('\n');
}

/**
 * The body of sync.items_stored_json (STORED_TASK_JSON): the heads of the api/v1, v9 and REST v2
 * task texts (splitObjectJsonSql, splitRestV2TaskJsonSql; the head never reads the link). A
 * migration holds it frozen; stored-object-json.integration-spec.ts fails when this differs from
 * what the migrations installed (a change here needs a migration that replaces the function and
 * rewrites the rows). A BEFORE trigger sees no generated column yet, so the copy's due_date_text
 * is computed as its column computes it (STORED_DUE_DATE, migration DueDateText). One group for
 * the REST v2 text: a zone PostgreSQL does not know (only its due reads the zone) or a February 30
 * must not cost a full sync its stored texts.
 */
export function taskJsonFunctionBody(): string {
  const { apiV1, v9, restV2 } = STORED_TASK_JSON.columns;
  const item = STORED_TASK_JSON.row.alias;
  return functionBody(
    STORED_TASK_JSON,
    'sync.items',
    [`  ${item}.due_date_text := CASE WHEN (${item}.due ->> 'date') ~ ${sqlLiteral(STORED_DUE_DATE)} THEN ${item}.due ->> 'date' END;`],
    [
      [
        [apiV1, API_V1_TASK_SPLIT],
        [v9, V9_TASK_SPLIT],
      ],
      [[restV2, splitRestV2TaskJsonSql(TASK_FIELDS, 'NULL::text')]],
    ],
  );
}

/**
 * The body of sync.notes_stored_json (STORED_NOTE_JSON): a comment's text (it has no member a
 * read computes), the same for api/v1 and v9, which both read the one column; refused where
 * their SQL differs (then sync.notes needs a column for v9's).
 */
export function noteJsonFunctionBody(): string {
  const { apiV1 } = STORED_NOTE_JSON.columns;
  if (!API_V1_NOTE_SPLIT || !V9_NOTE_SPLIT || API_V1_NOTE_SPLIT.head(STORED_NOTE_JSON.row) !== V9_NOTE_SPLIT.head(STORED_NOTE_JSON.row)) {
    throw new Error('the v9 comment is no longer written as the api/v1 one: add a column for its text to sync.notes and to STORED_NOTE_JSON');
  }
  return functionBody(STORED_NOTE_JSON, 'sync.notes', [], [[[apiV1, API_V1_NOTE_SPLIT]]]);
}
