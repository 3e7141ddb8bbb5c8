import { createServiceDataSource, migrateUp } from '@doable/shared-database';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { syncMigrations } from '../migrations';
import { UserProfileRepository } from './user-profile.repository';

/** Which account an address names, where two proven accounts share it in different cases (real PostgreSQL). */
describe('the account of an address', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const profiles = new UserProfileRepository();

  beforeAll(async () => {
    database = await createTestDatabase('user_profile_email');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 2, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('is the oldest of them by id as a number ("9" before "10")', async () => {
    for (const [id, email] of [['10', 'Ada@example.test'], ['9', 'ada@example.test']]) {
      await profiles.createWithInbox(dataSource.manager, { id, email, fullName: id, timezone: 'UTC', lang: 'en', joinedAt: '2026-01-01T00:00:00Z', hasPassword: true, emailVerified: true });
    }
    expect(await profiles.findIdByEmail(dataSource.manager, 'ADA@example.test')).toBe('9');
  });
});
