import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { syncMigrations, UserProfileRepository } from '@doable/sync-domain';
import { BackupRepository } from './backup.repository';

describe('BackupRepository: the backup schedule and its claims (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const backups = new BackupRepository();

  beforeAll(async () => {
    database = await createTestDatabase('backup_schedule');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    for (const id of ['9101', '9102', '9103']) {
      await dataSource.transaction((manager) =>
        profiles.createWithInbox(manager, { id, email: `${id}@test`, fullName: id, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
      );
    }
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('schedules every account a day out, and an operator request makes one due at once', async () => {
    await backups.scheduleNewUsers(dataSource.manager);
    expect(await backups.claimDue(dataSource.manager, 10)).toEqual([]);
    await backups.requestNow(dataSource.manager, '9102');
    expect(await backups.claimDue(dataSource.manager, 10)).toEqual([{ user_id: '9102', requested: true }]);
    // Claimed: due again in a day, the request consumed.
    expect(await backups.claimDue(dataSource.manager, 10)).toEqual([]);
  });

  it('never gives one due account to two concurrent claims', async () => {
    for (const id of ['9101', '9102', '9103']) await backups.requestNow(dataSource.manager, id);
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const first = await backups.claimDue(runner.manager, 2);
      const second = await backups.claimDue(dataSource.manager, 10);
      expect(first).toHaveLength(2);
      expect(second.map((row) => row.user_id)).toEqual(['9101', '9102', '9103'].filter((id) => !first.some((row) => row.user_id === id)));
    } finally {
      await runner.commitTransaction();
      await runner.release();
    }
  });

  it('lists newest first, finds by version, replaces a same-minute backup and expires old ones', async () => {
    const manager = dataSource.manager;
    expect(await backups.record(manager, '9101', '2026-11-20 03:00', 'backups/9101/a.zip', 10)).toBeUndefined();
    expect(await backups.record(manager, '9101', '2026-11-25 03:00', 'backups/9101/b.zip', 20)).toBeUndefined();
    expect(await backups.record(manager, '9101', '2026-11-25 03:00', 'backups/9101/c.zip', 30)).toBe('backups/9101/b.zip');
    await manager.query(`UPDATE sync.backups SET created_at = now() - interval '10 days' WHERE blob_key = 'backups/9101/a.zip'`);
    expect((await backups.list(manager, '9101')).map((row) => row.version)).toEqual(['2026-11-25 03:00', '2026-11-20 03:00']);
    expect(await backups.findByVersion(manager, '9102', '2026-11-25 03:00')).toBeUndefined();
    expect(await backups.expire(manager, 7, 100)).toEqual(['backups/9101/a.zip']);
    expect((await backups.list(manager, '9101')).map((row) => row.blob_key)).toEqual(['backups/9101/c.zip']);
  });
});
