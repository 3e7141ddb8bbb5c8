import { Client } from 'pg';

/** A column as the previous release's queries meet it. */
export interface ColumnShape {
  /** PostgreSQL's type name (`int8`, `text`, `timestamptz`, `_text` for text[]). */
  readonly type: string;
  readonly nullable: boolean;
  /** A default, an identity or a generated value: an INSERT may leave it out. */
  readonly hasDefault: boolean;
}

/** schema -> table -> column. */
export type SchemaShape = Record<string, Record<string, Record<string, ColumnShape>>>;

/** The tables and columns of these schemas in a migrated database (TypeORM's own `migrations` table left out). */
export async function readSchemaShape(databaseUrl: string, schemas: readonly string[]): Promise<SchemaShape> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await readSchemaShapeWith(client, schemas);
  } finally {
    await client.end();
  }
}

/** readSchemaShape on an open connection (a test reads what its own open transaction changed). */
export async function readSchemaShapeWith(client: Pick<Client, 'query'>, schemas: readonly string[]): Promise<SchemaShape> {
  const { rows } = await client.query<{ table_schema: string; table_name: string; column_name: string; udt_name: string; is_nullable: string; has_default: boolean }>(
    `SELECT c.table_schema, c.table_name, c.column_name, c.udt_name, c.is_nullable,
            (c.column_default IS NOT NULL OR c.is_identity = 'YES' OR c.is_generated = 'ALWAYS') AS has_default
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = ANY($1) AND t.table_type = 'BASE TABLE' AND c.table_name <> 'migrations'
      ORDER BY c.table_schema, c.table_name, c.column_name`,
    [schemas],
  );
  const shape: SchemaShape = {};
  for (const row of rows) {
    const tables = (shape[row.table_schema] ??= {});
    const columns = (tables[row.table_name] ??= {});
    columns[row.column_name] = { type: row.udt_name, nullable: row.is_nullable === 'YES', hasDefault: row.has_default };
  }
  return shape;
}

export interface ShapeBreak {
  readonly where: string;
  readonly rule: 'table-removed' | 'column-removed' | 'column-retyped' | 'column-made-required' | 'default-dropped';
}

/**
 * What in `next` the previous release's queries would fail on: a table or column it names is
 * gone or has another type, or an INSERT that leaves a column out (or writes NULL) is refused.
 * New tables and nullable or defaulted columns are what an expanding migration may add.
 */
export function shapeBreaks(previous: SchemaShape, next: SchemaShape): ShapeBreak[] {
  const breaks: ShapeBreak[] = [];
  for (const [schema, tables] of Object.entries(previous)) {
    for (const [table, columns] of Object.entries(tables)) {
      const now = next[schema]?.[table];
      if (!now) {
        breaks.push({ where: `${schema}.${table}`, rule: 'table-removed' });
        continue;
      }
      for (const [column, before] of Object.entries(columns)) {
        const after = now[column];
        const where = `${schema}.${table}.${column}`;
        if (!after) breaks.push({ where, rule: 'column-removed' });
        else if (after.type !== before.type) breaks.push({ where, rule: 'column-retyped' });
        else if (before.nullable && !after.nullable && !after.hasDefault) breaks.push({ where, rule: 'column-made-required' });
        else if (before.hasDefault && !after.hasDefault && !after.nullable) breaks.push({ where, rule: 'default-dropped' });
      }
      for (const [column, after] of Object.entries(now)) {
        if (!(column in columns) && !after.nullable && !after.hasDefault) breaks.push({ where: `${schema}.${table}.${column}`, rule: 'column-made-required' });
      }
    }
  }
  return breaks;
}
