import type { DataSource } from 'typeorm';

/**
 * Applies pending migrations. The schema is created first because the migrations table
 * itself lives in the service's schema.
 */
export async function migrateUp(dataSource: DataSource): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return applied.map((migration) => migration.name);
}

/** Reverts the most recent migration (run again to step further back). */
export async function migrateDown(dataSource: DataSource): Promise<void> {
  await dataSource.undoLastMigration({ transaction: 'each' });
}
