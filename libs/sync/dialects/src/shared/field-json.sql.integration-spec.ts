import type { FieldTable } from '@doable/contracts-sync';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { type RowSql, selectList, timestampColumns, withWireTimestamps } from '@doable/sync-domain';
import fc from 'fast-check';
import { Client } from 'pg';
import { objectJsonSql } from './field-json.sql';
import { fieldRowWriter } from './field-writer';
import { taskRowWriter } from './item-fields';

/**
 * Every part a line may have (field-line.ts), on a table made for the spec as field-writer.spec.ts
 * makes one: `fixed`, `from`, a computed value, `when` (each kind), `v9When`, `absent`, `wrap`,
 * `emptyAsNull`, the `null`, `timestamp`, `due` and `count` renders, and every column type.
 */
const TABLE = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', backup: false, template: false, csv: [] },
  is_collapsed: { column: { type: 'boolean', nullable: false }, apiV1: 'is_collapsed', v9: 'collapsed', backup: false, template: false, csv: [] },
  added_at: { column: { type: 'timestamptz', nullable: true }, apiV1: 'added_at', render: 'timestamp', backup: false, template: false, csv: [] },
  is_frozen: { column: null, apiV1: 'is_frozen', fixed: false, backup: false, template: false, csv: [] },
  default_order: { column: null, apiV1: 'default_order', v9: 'default_order', fixed: 0, backup: false, template: false, csv: [] },
  shared: { column: null, apiV1: 'is_shared', v9: 'shared', backup: false, template: false, csv: [] },
  can_assign: { column: null, apiV1: 'can_assign', from: 'shared', backup: false, template: false, csv: [] },
  sync_id: { column: null, v9: 'sync_id', render: 'null', backup: false, template: false, csv: [] },
  inbox: { column: { type: 'boolean', nullable: true }, apiV1: 'inbox', v9: 'inbox', when: 'true', backup: false, template: false, csv: [] },
  team_id: { column: { type: 'bigint', nullable: true }, apiV1: 'team_id', when: { set: 'team_id' }, backup: false, template: false, csv: [] },
  visibility: { column: { type: 'text', nullable: true }, apiV1: 'access', when: { set: 'team_id' }, wrap: 'visibility', backup: false, template: false, csv: [] },
  personal_note: { column: { type: 'text', nullable: true }, apiV1: 'personal_note', when: { unset: 'team_id' }, backup: false, template: false, csv: [] },
  reactions: { column: { type: 'jsonb', nullable: false }, apiV1: 'reactions', v9: 'reactions', emptyAsNull: true, backup: false, template: false, csv: [] },
  uids: { column: { type: 'bigint[]', nullable: true }, apiV1: 'uids', emptyAsNull: true, absent: 'none', backup: false, template: false, csv: [] },
  names: { column: { type: 'text[]', nullable: false }, apiV1: 'names', v9: 'names', backup: false, template: false, csv: [] },
  kind: { column: { type: 'text', nullable: false }, apiV1: 'kind', v9: 'kind', backup: false, template: false, csv: [] },
  radius: { column: { type: 'integer', nullable: true }, apiV1: 'radius', v9: 'radius', when: { field: 'kind', in: ['place'] }, absent: 0, backup: false, template: false, csv: [] },
  level: { column: { type: 'smallint', nullable: true }, apiV1: 'level', when: { field: 'id', in: ['1', '3'] }, backup: false, template: false, csv: [] },
  due: { column: { type: 'jsonb', nullable: true }, apiV1: 'due', v9: 'due', render: 'due', when: { field: 'kind', in: ['time'] }, v9When: { field: 'kind', in: ['time', 'offset'] }, backup: false, template: false, csv: [] },
  extra: { column: { type: 'jsonb', nullable: true }, apiV1: 'extra', when: { set: 'extra' }, backup: false, template: false, csv: [] },
  counted: { column: null, apiV1: 'counted', v9: 'counted', render: 'count', backup: false, template: false, csv: [] },
  role: { column: null, apiV1: 'role', backup: false, template: false, csv: [] },
  secret: { column: { type: 'text', nullable: true }, internal: true, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

/** The values the read computes beside the columns, as the JavaScript read would select them and as the SQL twin reads them. */
const COMPUTED = { shared: 'thing.shared_source', role: 'thing.role_source', counted: 'thing.count_source' };
const ROW: RowSql = {
  alias: 'thing',
  computed: { shared: { sql: COMPUTED.shared, type: 'boolean' }, role: { sql: COMPUTED.role, type: 'text' }, counted: { sql: COMPUTED.counted, type: 'integer' } },
};
/** The JavaScript read: the table's SELECT list, timestamps as wire text, as a full sync reads them. */
const SELECT = withWireTimestamps(selectList(TABLE, COMPUTED), timestampColumns(TABLE));

const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '😀', 'é'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 8 });
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.constantFrom(0.5, 1e21), text, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.oneof(text, fc.constantFrom('date', 'lang', '3')), tie('value'), { maxKeys: 3 })),
})).value;
const row = fc.record({
  id: fc.constantFrom('1', '2', '3', '6000000001'),
  is_collapsed: fc.boolean(),
  added_at: fc.option(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }), { nil: null }),
  inbox: fc.option(fc.boolean(), { nil: null }),
  team_id: fc.option(fc.constantFrom('9', '6000000009'), { nil: null }),
  visibility: fc.option(text, { nil: null }),
  personal_note: fc.option(text, { nil: null }),
  reactions: json,
  uids: fc.option(fc.array(fc.constantFrom('1', '6000000002'), { maxLength: 2 }), { nil: null }),
  names: fc.array(text, { maxLength: 3 }),
  kind: fc.constantFrom('place', 'time', 'offset', 'other'),
  radius: fc.option(fc.integer(), { nil: null }),
  level: fc.option(fc.integer({ min: -32768, max: 32767 }), { nil: null }),
  due: fc.option(json, { nil: null }),
  extra: fc.option(json, { nil: null }),
  shared_source: fc.option(fc.boolean(), { nil: null }),
  role_source: fc.option(text, { nil: null }),
  count_source: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
});
type Row = typeof row extends fc.Arbitrary<infer R> ? R : never;

describe('fieldRowWriter in SQL (objectJsonSql), every part of a line (real PostgreSQL)', () => {
  let database: TestDatabase;
  let client: Client;

  /** Writes a row to the spec's table and answers what each writer makes of it: JavaScript's text and PostgreSQL's. */
  const both = async (given: Row, dialect: 'apiV1' | 'v9'): Promise<{ inJs: string; bySql: string | null }> => {
    await client.query('TRUNCATE thing');
    await client.query(
      `INSERT INTO thing (id, is_collapsed, added_at, inbox, team_id, visibility, personal_note, reactions, uids, names, kind, radius, level, due, extra, shared_source, role_source, count_source)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14::jsonb, $15::jsonb, $16, $17, $18)`,
      [
        given.id,
        given.is_collapsed,
        given.added_at,
        given.inbox,
        given.team_id,
        given.visibility,
        given.personal_note,
        JSON.stringify(given.reactions),
        given.uids,
        given.names,
        given.kind,
        given.radius,
        given.level,
        given.due === null ? null : JSON.stringify(given.due),
        given.extra === null ? null : JSON.stringify(given.extra),
        given.shared_source,
        given.role_source,
        given.count_source,
      ],
    );
    const { rows } = await client.query<Record<string, unknown>>(`SELECT ${SELECT} FROM thing`);
    const { rows: written } = await client.query<{ text: string | null }>(`SELECT ${objectJsonSql(TABLE, dialect, 'fieldRowWriter')(ROW)} AS text FROM thing`);
    return { inJs: JSON.stringify(fieldRowWriter(TABLE, dialect)(rows[0])), bySql: written[0].text };
  };

  beforeAll(async () => {
    database = await createTestDatabase('field_json_sql');
    client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(`CREATE TABLE thing (id bigint NOT NULL, is_collapsed boolean NOT NULL, added_at timestamptz, inbox boolean, team_id bigint, visibility text, personal_note text,
      reactions jsonb NOT NULL, uids bigint[], names text[] NOT NULL, kind text NOT NULL, radius integer, level smallint, due jsonb, extra jsonb, secret text,
      shared_source boolean, role_source text, count_source integer)`);
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it.each<'apiV1' | 'v9'>(['apiV1', 'v9'])('write any row of the table as fieldRowWriter does in %s, byte for byte, or not at all', async (dialect) => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(row, async (given) => {
        const { inJs, bySql } = await both(given, dialect);
        if (bySql !== null) {
          written++;
          expect(bySql).toBe(inJs);
        }
      }),
      { numRuns: 150 },
    );
    expect(written).toBeGreaterThan(50);
  });

  it('write the row field-writer.spec.ts writes as it does', async () => {
    const personal: Row = {
      id: '1',
      is_collapsed: true,
      added_at: new Date('2026-01-02T03:04:05.678Z'),
      inbox: false,
      team_id: null,
      visibility: 'team',
      personal_note: 'mine',
      reactions: {},
      uids: [],
      names: [],
      kind: 'offset',
      radius: null,
      level: 2,
      due: null,
      extra: null,
      shared_source: false,
      role_source: null,
      count_source: null,
    };
    const { inJs, bySql } = await both(personal, 'apiV1');
    expect(bySql).toBe(inJs);
    expect(JSON.parse(bySql ?? '')).toEqual({
      id: '1',
      is_collapsed: true,
      added_at: '2026-01-02T03:04:05.678000Z',
      is_frozen: false,
      default_order: 0,
      is_shared: false,
      can_assign: false,
      personal_note: 'mine',
      reactions: null,
      uids: 'none',
      names: [],
      kind: 'offset',
      level: 2,
      counted: 0,
      role: null,
    });
  });

  it('write a task table as taskRowWriter does', async () => {
    const TASKS = { id: TABLE.id, is_collapsed: TABLE.is_collapsed, added_at: TABLE.added_at, names: TABLE.names, due: { ...TABLE.due, when: undefined, v9When: undefined }, counted: TABLE.counted } as const satisfies FieldTable;
    const sample: Row = { ...fc.sample(row, { numRuns: 1, seed: 7 })[0], due: { date: '2026-01-02', lang: 'de', extra: 1 }, count_source: 3 };
    await both(sample, 'apiV1');
    const { rows } = await client.query<Record<string, unknown>>(`SELECT ${withWireTimestamps(selectList(TASKS, { counted: COMPUTED.counted }), timestampColumns(TASKS))} FROM thing`);
    const { rows: written } = await client.query<{ text: string }>(`SELECT ${objectJsonSql(TASKS, 'v9', 'taskRowWriter')(ROW)} AS text FROM thing`);
    expect(written[0].text).toBe(JSON.stringify(taskRowWriter(TASKS, 'v9')(rows[0] as never)));
  });
});
