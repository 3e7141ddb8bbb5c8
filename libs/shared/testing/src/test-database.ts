import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The server the integration and end-to-end tiers use (PostgreSQL 15 on this machine, trust auth). */
export const TEST_POSTGRES_ADMIN_URL = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/**
 * The migrated database a test run copies (`npm test` makes it once per set of migrations:
 * tools/scripts/test-fixtures.mjs), named by this variable; unset, every database starts empty.
 */
export const TEST_TEMPLATE_DATABASE_ENV = 'DOABLE_TEST_TEMPLATE_DATABASE';

export interface TestDatabaseOptions {
  /** Start empty even when a migrated template is there: for tests of the migrations themselves. */
  readonly empty?: boolean;
}

/**
 * A brand-new database for one test file: nothing is shared between runs or files. It is a copy
 * of the run's migrated template when there is one (CREATE DATABASE ... TEMPLATE copies files,
 * far faster than 30-odd migrations), so a service's own migrateUp then finds nothing to do.
 */
export async function createTestDatabase(label: string, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const name = `doable_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const template = options.empty ? undefined : process.env[TEST_TEMPLATE_DATABASE_ENV];
  const admin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
