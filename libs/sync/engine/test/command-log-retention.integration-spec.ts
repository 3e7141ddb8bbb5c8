import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { CommandLogRetention, Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { syncMigrations } from '@doable/sync-domain';

describe('CommandLogRetention (PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let retention: CommandLogRetention;

  beforeAll(async () => {
    database = await createTestDatabase('command_log_retention');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 2, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const db = new Database(dataSource, 'sync', { nudge: () => undefined } as unknown as OutboxRelay);
    retention = new CommandLogRetention(db, 'sync.command_log', 30, createLogger('test', 'silent'));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('forgets uuids older than the retention and keeps the recent ones', async () => {
    await dataSource.query(
      `INSERT INTO sync.command_log (user_id, uuid, status, executed_at)
       SELECT 1, 'old-' || n, '"ok"'::jsonb, now() - interval '31 days' FROM generate_series(1, 5100) n
       UNION ALL SELECT 1, 'recent', '"ok"'::jsonb, now() - interval '29 days'
       UNION ALL SELECT 2, 'today', '"ok"'::jsonb, now()`,
    );
    // More than one batch of expired rows: the loop must go round until none are left.
    await expect(retention.prune()).resolves.toBe(5100);
    const left = await dataSource.query<Array<{ uuid: string }>>('SELECT uuid FROM sync.command_log ORDER BY uuid');
    expect(left.map((row) => row.uuid)).toEqual(['recent', 'today']);
    await expect(retention.prune()).resolves.toBe(0);
  });
});
