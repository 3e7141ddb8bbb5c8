import { COMMENT_FIELDS, type FieldTable, TASK_FIELDS } from '@doable/contracts-sync';
import type { RowSql } from '@doable/sync-domain';
import { objectJsonSql, splitObjectJsonSql } from './field-json.sql';
import { STORED_NOTE_JSON, STORED_TASK_JSON } from './stored-object-json';
import { DUE_KEYS, writeDue } from './item-fields';
import { answerText, RawJson } from './raw-json';
import { API_V1_JSON, API_V1_NOTE_SPLIT, API_V1_TASK_SPLIT, V9_JSON } from './sync-json';

const ROW: RowSql = { alias: 'item', computed: { note_count: { sql: 'counts.note_count', type: 'integer' } } };
const line = { backup: false, template: false, csv: [] } as const;

/**
 * The SQL twins of the writers refuse, when they are made, a line they would write otherwise than
 * the JavaScript writer does; the golden specs (full-sync-json and rest-v2-rendering, integration)
 * hold what they do write to the JavaScript writers' bytes.
 */
describe('objectJsonSql', () => {
  it('is made for the production tables, the writers api/v1 and v9 answer a full sync with', () => {
    // The comments: the text stored with each (one column for api/v1 and v9), then the closing brace.
    expect(API_V1_NOTE_SPLIT?.head({ alias: 'note', computed: {} })).toContain('"posted_at"');
    for (const reads of [API_V1_JSON, V9_JSON]) {
      expect(reads.notes?.({ alias: 'note', computed: {} })).toContain(`note.${STORED_NOTE_JSON.columns.apiV1} || ('}')`);
    }
    // The tasks: the head stored with each task, then what the read computes (api/v1's comment count; v9 has none).
    expect(API_V1_TASK_SPLIT?.head({ alias: 'item', computed: {} })).toContain('"content"');
    expect(API_V1_JSON.items?.(ROW)).toContain(`item.${STORED_TASK_JSON.columns.apiV1} || (',"note_count":' || coalesce((counts.note_count), 0)::text || '}')`);
    expect(V9_JSON.items?.(ROW)).toContain(`item.${STORED_TASK_JSON.columns.v9} || ('}')`);
  });

  it.each<[string, FieldTable]>([
    ['a member the row holds after one the read computes (a line added at the end of the table)', { id: TASK_FIELDS.id, note_count: TASK_FIELDS.note_count, content: TASK_FIELDS.content }],
    ['no member the row holds first', { note_count: TASK_FIELDS.note_count }],
  ])('leaves a task text with %s to be written whole at read time', (_name, table) => {
    expect(splitObjectJsonSql(table, 'apiV1', 'taskRowWriter')).toBeUndefined();
    expect(splitObjectJsonSql({ id: TASK_FIELDS.id, content: TASK_FIELDS.content, note_count: TASK_FIELDS.note_count }, 'apiV1', 'taskRowWriter')).toBeDefined();
  });

  it.each<[string, FieldTable, RegExp]>([
    ['a task line with a part taskRowWriter does not read', { ...TASK_FIELDS, extra: { ...line, column: { type: 'text', nullable: true }, apiV1: 'extra', when: { set: 'extra' } } }, /taskRowWriter does not read/],
    ['a task line without a column written as its value', { ...TASK_FIELDS, extra: { ...line, column: null, apiV1: 'extra' } }, /give it a render/],
    ['an internal line with a key', { ...TASK_FIELDS, extra: { ...line, column: { type: 'text', nullable: true }, apiV1: 'extra', internal: true } }, /internal/],
  ])('refuses %s when it is made', (_name, table, message) => {
    expect(() => objectJsonSql(table, 'apiV1', 'taskRowWriter')).toThrow(message);
  });

  it.each<[string, FieldTable, RegExp]>([
    ['a timestamp written as a value (a Date’s JSON is not the wire text)', { at: { ...line, column: { type: 'timestamptz', nullable: false }, apiV1: 'at' } }, /`timestamp` render/],
    ['the timestamp render of a column that is none', { at: { ...line, column: { type: 'text', nullable: false }, apiV1: 'at', render: 'timestamp' } }, /timestamptz/],
    ['a due that is no jsonb', { due: { ...line, column: { type: 'text', nullable: true }, apiV1: 'due', render: 'due' } }, /jsonb/],
    ['emptyAsNull on a due', { due: { ...line, column: { type: 'jsonb', nullable: true }, apiV1: 'due', render: 'due', emptyAsNull: true } }, /writeDue/],
    ['a line read from a field the read neither selects nor computes', { shown: { ...line, column: null, apiV1: 'shown', from: 'nowhere' } }, /no SQL from the read/],
  ])('refuses %s', (_name, table, message) => {
    expect(() => objectJsonSql(table, 'apiV1', 'fieldRowWriter')({ alias: 'row', computed: {} })).toThrow(message);
  });

  it('refuses a line of a stored column it cannot write when it is made, before any read', () => {
    expect(() => objectJsonSql({ at: { ...line, column: { type: 'timestamptz', nullable: false }, apiV1: 'at' } }, 'apiV1', 'fieldRowWriter')).toThrow(/`timestamp` render/);
  });

  it('writes the comment table’s parts (item_id on a task comment, project_id on a project one)', () => {
    const sql = objectJsonSql(COMMENT_FIELDS, 'apiV1', 'fieldRowWriter')({ alias: 'note', computed: {} });
    expect(sql).toMatch(/CASE WHEN NOT coalesce\(\(note\.item_id IS NULL\), false\) THEN ',"item_id":'/);
    expect(sql).toMatch(/CASE WHEN \(note\.item_id IS NULL\) THEN ',"project_id":'/);
  });
});

describe('DUE_KEYS', () => {
  it('are the keys writeDue writes, in its order (the due’s SQL writes them from the list)', () => {
    expect(Object.keys(writeDue({ date: '2026-01-02', timezone: null, string: 's', lang: 'en', is_recurring: false }) ?? {})).toEqual([...DUE_KEYS]);
  });
});

describe('answerText', () => {
  it('writes an answer as JSON.stringify does, with a RawJson value’s text spliced in as it is', () => {
    const answer = { a: 1, items: new RawJson('[{"id":"1"}]'), skipped: undefined, b: 'x"y', day_orders: new RawJson('{}') };
    expect(answerText(answer)).toBe('{"a":1,"items":[{"id":"1"}],"b":"x\\"y","day_orders":{}}');
    expect(answerText(answer)).toBe(JSON.stringify(answer));
  });
});
