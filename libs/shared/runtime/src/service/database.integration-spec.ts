import { eventSubject } from '@doable/contracts-common';
import { createServiceDataSource, messagingTablesDown, messagingTablesUp, migrateUp, OutboxRelay, outboxTraceContextUp } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { Database } from './database';

const SCHEMA = 'observed_commits';

class CreateTables1700000000000 implements MigrationInterface {
  name = 'CreateTables1700000000000';
  async up(queryRunner: QueryRunner) {
    for (const sql of [`CREATE TABLE ${SCHEMA}.things (id int PRIMARY KEY)`, ...messagingTablesUp(SCHEMA), ...outboxTraceContextUp(SCHEMA)]) await queryRunner.query(sql);
  }
  async down(queryRunner: QueryRunner) {
    for (const sql of [...messagingTablesDown(SCHEMA), `DROP TABLE ${SCHEMA}.things`]) await queryRunner.query(sql);
  }
}

const moved = eventSubject('test.evt.moved.v1', z.object({ ids: z.array(z.number()) }));
const other = eventSubject('test.evt.other.v1', z.object({ id: z.number() }));

/** Database.onCommitted: what must hold before a transaction's caller is answered (the gateways' poll answers). */
describe('commit observers (real PostgreSQL)', () => {
  let testDatabase: TestDatabase;
  let dataSource: DataSource;
  let database: Database;
  const told: Array<{ payloads: readonly unknown[]; committed: number }> = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase('observed-commits');
    dataSource = createServiceDataSource({ schema: SCHEMA, url: testDatabase.url, poolSize: 2, applicationName: 'test', migrations: [CreateTables1700000000000] });
    await dataSource.initialize();
    await migrateUp(dataSource);
    database = new Database(dataSource, SCHEMA, new OutboxRelay(dataSource, SCHEMA, { publish: () => Promise.resolve() }, createLogger('test', 'silent'), 3_600_000));
    database.onCommitted(moved, async (payloads) => {
      // Read on another connection: the work must be visible, so committed, when the observer runs.
      const [{ count }] = await dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM ${SCHEMA}.things`);
      told.push({ payloads, committed: count });
    });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await testDatabase.drop();
  });

  beforeEach(async () => {
    told.length = 0;
    await dataSource.query(`TRUNCATE ${SCHEMA}.things, ${SCHEMA}.outbox`);
  });

  it('tells the observer every payload of its subject once the work has committed, before the transaction returns', async () => {
    await database.transaction(async (tx) => {
      await tx.manager.query(`INSERT INTO ${SCHEMA}.things (id) VALUES (1), (2)`);
      await tx.emit(moved, { ids: [1] });
      await tx.emit(other, { id: 9 });
      await tx.emitAll(moved, [{ ids: [2] }, { ids: [3] }]);
    });
    expect(told).toEqual([{ payloads: [{ ids: [1] }, { ids: [2] }, { ids: [3] }], committed: 2 }]);
  });

  it('tells nothing when the work rolls back, or emitted nothing observed', async () => {
    await expect(
      database.transaction(async (tx) => {
        await tx.emit(moved, { ids: [1] });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await database.transaction((tx) => tx.emit(other, { id: 1 }));
    await database.transaction((tx) => tx.emitAll(moved, []));
    expect(told).toEqual([]);
  });

  it('takes one observer per subject', () => {
    expect(() => database.onCommitted(moved, () => Promise.resolve())).toThrow(/already has a commit observer/);
  });
});
