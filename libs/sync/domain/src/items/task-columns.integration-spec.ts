import { columnsOf, type ColumnType, type FieldTable, TASK_FIELDS } from '@doable/contracts-sync';
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

/**
 * Columns PostgreSQL derives from a task's fields for the reads, never written by a command or
 * a dialect: due_date_text (migration DueDateText, the filters' checked due date) and each
 * dialect's stored task text (migration StoredTaskJson, written by its trigger).
 */
const DERIVED_FOR_READS = ['due_date_text', 'api_v1_json', 'v9_json', 'rest_v2_json'];

interface StoredColumn {
  name: string;
  type: string;
  nullable: boolean;
}

/**
 * The task field table against the migrations: on a database every migration has run on, each
 * column the table names exists with its type and nullability, and each column of sync.items
 * has a line (a migration that adds a column the table does not know is a field no dialect
 * writes and no command takes).
 */
describe('the task field table against the migrated sync.items (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let stored: StoredColumn[];

  beforeAll(async () => {
    database = await createTestDatabase('task_columns');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 1, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    stored = await dataSource.query<StoredColumn[]>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type, NOT attnotnull AS nullable
         FROM pg_attribute WHERE attrelid = 'sync.items'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('has each column the table names, of its type and nullability', () => {
    const table: FieldTable = TASK_FIELDS;
    const expected = columnsOf(table).map((column) => ({ name: column.name, type: POSTGRES_TYPE[column.type], nullable: column.nullable }));
    const actual = expected.map((column) => stored.find((row) => row.name === column.name) ?? { name: column.name, type: 'missing', nullable: column.nullable });
    expect(actual).toEqual(expected);
  });

  it('has no column the table does not name, but the ones PostgreSQL derives for reads', () => {
    const named = new Set([...columnsOf(TASK_FIELDS).map((column) => column.name), ...DERIVED_FOR_READS]);
    expect(stored.filter((row) => !named.has(row.name)).map((row) => row.name)).toEqual([]);
  });
});
