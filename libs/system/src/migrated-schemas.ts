import { createHash } from 'node:crypto';
import { migrateUp } from '@doable/shared-database';
import { withMigrationDataSource } from '@doable/shared-runtime';
import { ALL_SERVICES } from './all-services';

/**
 * Every data-owning service's migrations, applied to one database, one schema after the other
 * (what the cluster's migration Job does with one process per service, here in this process).
 * Used to make the migrated template the test tiers copy instead of migrating per database.
 */
export async function migrateAllSchemas(databaseUrl: string): Promise<void> {
  for (const definition of ALL_SERVICES) await withMigrationDataSource(definition, databaseUrl, (dataSource) => migrateUp(dataSource).then(() => undefined));
}

/**
 * A short fingerprint of every migration (schema, class name and compiled code): a migrated copy
 * made under one fingerprint is reused only while no migration was added or edited.
 */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const definition of ALL_SERVICES) {
    if (!definition.database) continue;
    hash.update(definition.database.schema);
    for (const migration of definition.database.migrations) hash.update(migration.name).update(migration.toString());
  }
  return hash.digest('hex').slice(0, 12);
}
