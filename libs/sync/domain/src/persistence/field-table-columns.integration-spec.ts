import { columnsOf, type ColumnType, COMMENT_FIELDS, type FieldTable, FILTER_FIELDS, LABEL_FIELDS, PROJECT_FIELDS, REMINDER_FIELDS, SECTION_FIELDS } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { syncMigrations } from '../migrations';

/** Each ColumnType as PostgreSQL's format_type names it. */
const POSTGRES_TYPE: { readonly [T in ColumnType]: string } = {
  bigint: 'bigint',
  text: 'text',
  smallint: 'smallint',
  integer: 'integer',
  boolean: 'boolean',
  jsonb: 'jsonb',
  'text[]': 'text[]',
  'bigint[]': 'bigint[]',
  timestamptz: 'timestamp with time zone',
};

interface StoredColumn {
  name: string;
  type: string;
  nullable: boolean;
}

/**
 * Each resource's field table and the relation it describes (the task's is walked by
 * task-columns.integration-spec.ts), with the columns PostgreSQL derives for the reads, never
 * written by a command or a dialect: a comment's stored text (migration StoredNoteJson).
 */
const TABLES: ReadonlyArray<{ readonly relation: string; readonly fields: FieldTable; readonly derived?: readonly string[] }> = [
  { relation: 'sync.projects', fields: PROJECT_FIELDS },
  { relation: 'sync.sections', fields: SECTION_FIELDS },
  { relation: 'sync.labels', fields: LABEL_FIELDS },
  { relation: 'sync.notes', fields: COMMENT_FIELDS, derived: ['api_v1_json'] },
  { relation: 'sync.filters', fields: FILTER_FIELDS },
  { relation: 'sync.reminders', fields: REMINDER_FIELDS },
];

/**
 * The field tables against the migrations: on a database every migration has run on, each
 * column a table names exists with its type and nullability, and each column of the relation
 * has a line (a migration that adds a column the table does not know is a field no dialect
 * writes and no command takes).
 */
describe('the field tables against the migrated sync schema (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('field_table_columns');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 1, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const storedColumnsOf = (relation: string): Promise<StoredColumn[]> =>
    dataSource.query<StoredColumn[]>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type, NOT attnotnull AS nullable
         FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
      [relation],
    );

  describe.each(TABLES)('$relation', ({ relation, fields, derived = [] }) => {
    it('has each column the table names, of its type and nullability', async () => {
      const stored = await storedColumnsOf(relation);
      const expected = columnsOf(fields).map((column) => ({ name: column.name, type: POSTGRES_TYPE[column.type], nullable: column.nullable }));
      const actual = expected.map((column) => stored.find((row) => row.name === column.name) ?? { name: column.name, type: 'missing', nullable: column.nullable });
      expect(actual).toEqual(expected);
    });

    it('has no column the table does not name, but the ones PostgreSQL derives for reads', async () => {
      const named = new Set([...columnsOf(fields).map((column) => column.name), ...derived]);
      expect((await storedColumnsOf(relation)).filter((row) => !named.has(row.name)).map((row) => row.name)).toEqual([]);
    });
  });
});
