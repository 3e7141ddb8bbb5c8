import { createServiceDataSource, migrateDown, migrateUp } from '@doable/shared-database';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { ALL_SERVICES } from './all-services';

const dataServices = ALL_SERVICES.filter((service) => service.database);

describe('service migrations (real PostgreSQL)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('migrations', { empty: true });
  });

  afterAll(async () => {
    await database.drop();
  });

  it('covers every service that owns data', () => {
    expect(dataServices.map((service) => service.name).sort()).toEqual(['auth-oauth', 'notifications', 'plans', 'sync', 'uploads', 'webhooks']);
  });

  it.each(dataServices.map((service) => [service.name, service] as const))('%s: applies, reverts completely and re-applies', async (_name, service) => {
    const schema = service.database!.schema;
    const dataSource = createServiceDataSource({ schema, url: database.url, poolSize: 1, applicationName: 'test', migrations: service.database!.migrations });
    await dataSource.initialize();
    const tables = async () =>
      (await dataSource.query<Array<{ table_name: string }>>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'migrations' ORDER BY 1`, [schema])).map(
        (row) => row.table_name,
      );
    try {
      const applied = await migrateUp(dataSource);
      expect(applied).toHaveLength(service.database!.migrations.length);
      const created = await tables();
      expect(created).toEqual(expect.arrayContaining(['outbox', 'processed_events']));
      await expect(migrateUp(dataSource)).resolves.toEqual([]);

      for (let step = 0; step < applied.length; step++) await migrateDown(dataSource);
      await expect(tables()).resolves.toEqual([]);

      await migrateUp(dataSource);
      await expect(tables()).resolves.toEqual(created);
    } finally {
      await dataSource.destroy();
    }
  });
});
