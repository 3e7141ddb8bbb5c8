import { join } from 'node:path';
import { readReleaseRecords, releasesToKeep } from '@doable/contracts-releases';
import { PRODUCT_VERSION } from '@doable/shared-logging';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { Client } from 'pg';
import { migrateAllSchemas } from './migrated-schemas';
import { droppedByContractSteps, releaseMigrations } from './release-migrations';
import { readSchemaShape, readSchemaShapeWith, shapeBreaks } from './schema-shape';

/**
 * The previous release's code keeps running on the schema HEAD's migrations make (expand, then
 * contract): every table and column a kept release's queries name is still there with its type,
 * and none of its INSERTs is refused for a column it leaves out. Real PostgreSQL, migrated from
 * empty by every service's migrations.
 */
const records = readReleaseRecords(join(__dirname, '..', '..', '..', 'contracts', 'releases'));
const schemas = Object.keys(releaseMigrations());

describe('the migrated schema beside the releases this one must run with (real PostgreSQL)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('release_schema', { empty: true });
    await migrateAllSchemas(database.url);
  }, 180_000);

  afterAll(async () => {
    await database?.drop();
  });

  it.each(releasesToKeep(records, PRODUCT_VERSION).map((record) => [record.release, record] as const))("keeps every table and column release %s's queries use", async (_release, record) => {
    expect(Object.keys(record.schemas).length).toBeGreaterThan(0);
    // A contract step may drop what it names (it says which release stopped using it); nothing else.
    const dropped = droppedByContractSteps(record.migrations);
    const breaks = shapeBreaks(record.schemas, await readSchemaShape(database.url, schemas));
    expect(breaks.filter((found) => !dropped.some((object) => found.where === object || found.where.startsWith(`${object}.`)))).toEqual([]);
  });

  it('fails on a migration that would break the release: a dropped column, a retyped one, a new required one', async () => {
    const record = records.find((candidate) => candidate.release === PRODUCT_VERSION)!;
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      // Only what the statements below break count (a contract step at HEAD may have dropped more).
      const before = shapeBreaks(record.schemas, await readSchemaShapeWith(client, schemas)).map((found) => found.where);
      // What a careless migration might do, on this throwaway database, in a transaction undone below.
      await client.query('BEGIN');
      await client.query('ALTER TABLE sync.users DROP COLUMN digest_sent_on');
      await client.query('ALTER TABLE plans.user_plans ALTER COLUMN plan_id TYPE varchar(40)');
      await client.query('ALTER TABLE notifications.live_notifications ADD COLUMN channel text NOT NULL');
      await client.query(`CREATE TABLE sync.brand_new (id bigint NOT NULL)`);
      const shape = await readSchemaShapeWith(client, schemas);
      await client.query('ROLLBACK');
      expect(shapeBreaks(record.schemas, shape).filter((found) => !before.includes(found.where))).toEqual([
        { where: 'notifications.live_notifications.channel', rule: 'column-made-required' },
        { where: 'plans.user_plans.plan_id', rule: 'column-retyped' },
        { where: 'sync.users.digest_sent_on', rule: 'column-removed' },
      ]);
    } finally {
      await client.end();
    }
  });
});
