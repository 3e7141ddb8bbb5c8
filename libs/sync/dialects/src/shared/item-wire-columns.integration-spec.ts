import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { Client } from 'pg';
import { wireTimestampSql } from '@doable/sync-domain';
import { wireTimestamp } from './wire-format';

describe('timestamps formatted by PostgreSQL (ITEM_WIRE_COLUMNS)', () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase('item_wire_columns');
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it.each(['UTC', 'Asia/Kolkata', 'America/St_Johns'])('read the same as the pg driver Date through wireTimestamp (session zone %s)', async (zone) => {
    await client.query(`SET TIME ZONE '${zone}'`);
    // Random microseconds over eight years, a leap day, a DST edge, and no timestamp at all.
    const { rows } = await client.query<{ added_at: Date | null; wire: string | null }>(
      `SELECT added_at, ${wireTimestampSql('added_at')} AS wire
         FROM (SELECT now() - random() * interval '3000 days' AS added_at FROM generate_series(1, 20000)
               UNION ALL VALUES (timestamptz '2024-02-29 23:59:59.999999+00'), (timestamptz '2026-03-29 01:00:00.029+00'), (NULL::timestamptz)) AS t`,
    );
    const differing = rows.filter((row) => (row.added_at === null ? null : wireTimestamp(row.added_at)) !== row.wire);
    expect(differing).toEqual([]);
  });
});
