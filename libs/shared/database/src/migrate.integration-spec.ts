import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { createServiceDataSource } from './data-source';
import { migrateUp } from './migrate';

/**
 * A rolling update migrates while the previous release serves. An `ALTER TABLE` needs an
 * exclusive lock; waiting for it behind a running transaction, it would make every later query
 * of the table wait too, and the live service would time out. migrateUp bounds the wait, gives
 * the lock back, and tries again once the table is free.
 */

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE migrate_spec.notes (id int PRIMARY KEY)');
    await queryRunner.query('INSERT INTO migrate_spec.notes VALUES (1), (2)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE migrate_spec.notes');
  }
}

class AddNoteColour1700000000001 implements MigrationInterface {
  name = 'AddNoteColour1700000000001';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE migrate_spec.notes ADD COLUMN colour text');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE migrate_spec.notes DROP COLUMN colour');
  }
}

describe('migrateUp (real PostgreSQL)', () => {
  let database: TestDatabase;
  const clients: Client[] = [];

  const connect = async () => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    clients.push(client);
    return client;
  };
  const dataSourceWith = (migrations: (new () => MigrationInterface)[]) =>
    createServiceDataSource({ schema: 'migrate_spec', url: database.url, poolSize: 2, applicationName: 'migrate-spec', migrations });

  beforeAll(async () => {
    database = await createTestDatabase('migrate', { empty: true });
    const first = dataSourceWith([CreateNotes1700000000000]);
    await first.initialize();
    await migrateUp(first);
    await first.destroy();
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await database.drop();
  });

  it('does not hold readers behind a lock it waits for, and applies the migration once the table is free', async () => {
    // A transaction of the live service that has read the table and is still open.
    const longReader = await connect();
    await longReader.query('BEGIN');
    await longReader.query('SELECT * FROM migrate_spec.notes');

    const dataSource = dataSourceWith([CreateNotes1700000000000, AddNoteColour1700000000001]);
    await dataSource.initialize();
    const retries: number[] = [];
    const migrated = migrateUp(dataSource, { lockTimeoutMs: 200, onLockRetry: (attempt) => retries.push(attempt) });

    // Once the migration has given up its wait at least once, a new reader is not queued behind it.
    const deadline = Date.now() + 60_000;
    while (retries.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(retries.length).toBeGreaterThan(0);
    const reader = await connect();
    // Guarded by statement_timeout: unbounded, this read would wait for the long transaction.
    await reader.query("SET statement_timeout = '30s'");
    const rows = await reader.query<{ id: number }>('SELECT id FROM migrate_spec.notes ORDER BY id');
    expect(rows.rows.map((row) => row.id)).toEqual([1, 2]);

    await longReader.query('COMMIT');
    await expect(migrated).resolves.toEqual(['AddNoteColour1700000000001']);
    const columns = await reader.query<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_schema = 'migrate_spec' AND table_name = 'notes' ORDER BY column_name");
    expect(columns.rows.map((row) => row.column_name)).toEqual(['colour', 'id']);
    await dataSource.destroy();
  });

  it('reports an error that is not a lock wait at once', async () => {
    class Broken1700000000002 implements MigrationInterface {
      name = 'Broken1700000000002';
      async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query('ALTER TABLE migrate_spec.no_such_table ADD COLUMN x int');
      }
      async down(): Promise<void> {}
    }
    const dataSource = dataSourceWith([CreateNotes1700000000000, AddNoteColour1700000000001, Broken1700000000002]);
    await dataSource.initialize();
    const retries: number[] = [];
    await expect(migrateUp(dataSource, { onLockRetry: (attempt) => retries.push(attempt) })).rejects.toThrow(/no_such_table/);
    expect(retries).toEqual([]);
    await dataSource.destroy();
  });
});
