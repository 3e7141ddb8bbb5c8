import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { authMigrations } from '../migrations';
import { AccountService } from './account.service';
import { CommandLogRepository } from './command-log.repository';

/**
 * A sign-up whose INSERT PostgreSQL refuses throws TypeORM's QueryFailedError, which carries
 * the statement and its positional parameters: the email, the scrypt hash and salt. Logged as
 * any service logs an unexpected error, none of that may reach the log output.
 */
describe('a failed sign-up in the logs (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let accounts: AccountService;

  beforeAll(async () => {
    database = await createTestDatabase('auth_logging');
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 2, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    accounts = new AccountService(new Database(dataSource, 'auth', { nudge: () => undefined } as unknown as OutboxRelay), new CommandLogRepository());
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('logs the failure without the query, its parameters or the password hash', async () => {
    const email = 'ada-logging@example.test';
    // A NUL byte PostgreSQL refuses as text: the INSERT fails after the password was hashed.
    const failure = await accounts.create({ email, fullName: 'Ada\u0000', password: 'a sturdy passphrase', timezone: 'UTC' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({ name: 'QueryFailedError', parameters: expect.arrayContaining([expect.stringMatching(/^scrypt\$/)]) as unknown });

    const lines: string[] = [];
    const logger = createLogger('auth-oauth', 'info', { write: (line: string) => void lines.push(line) });
    logger.error({ err: failure }, 'unhandled error in message handler');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('scrypt$');
    expect(lines[0]).not.toContain(email);
    expect(lines[0]).not.toContain('INSERT INTO');
    expect(JSON.parse(lines[0])).toMatchObject({ err: { type: 'QueryFailedError', code: '22021' } });
  });
});
