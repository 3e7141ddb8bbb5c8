import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';

/** A fresh data folder runs PGlite's initdb in WebAssembly: seconds alone, more on a busy machine. */
const START_TIMEOUT_MS = 120_000;

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client(url);
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A database that ends on its own fails the test that started it, instead of passing unnoticed. */
function failOnLost(error: Error): void {
  throw error;
}

describe('startEmbeddedPostgres (PGlite in a worker thread)', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'doable-embedded-pg-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps what was written in its data folder across a close and a new start', async () => {
    const dataDir = join(folder, 'pg');
    const first = await startEmbeddedPostgres({ dataDir, port: 0, maxConnections: 4, onLost: failOnLost });
    try {
      await query(first.url, 'CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$written before the close$$)');
    } finally {
      await first.close();
    }
    const second = await startEmbeddedPostgres({ dataDir, port: 0, maxConnections: 4, onLost: failOnLost });
    try {
      expect(await query<{ note: string }>(second.url, 'SELECT note FROM kept')).toEqual([{ note: 'written before the close' }]);
    } finally {
      await second.close();
    }
  }, START_TIMEOUT_MS);

  it('refuses to start, with the reason, when the data folder cannot be made', async () => {
    const notAFolder = join(folder, 'a-file');
    await writeFile(notAFolder, '');
    await expect(startEmbeddedPostgres({ dataDir: join(notAFolder, 'pg'), port: 0, maxConnections: 4, onLost: failOnLost })).rejects.toThrow(
      /the embedded database could not start: .*ENOTDIR/,
    );
  });

  it('closes once however often close() is called', async () => {
    const database = await startEmbeddedPostgres({ dataDir: 'memory://', port: 0, maxConnections: 4, initialData: process.env['DOABLE_TEST_PGLITE_ARCHIVE'], onLost: failOnLost });
    expect(await query<{ two: number }>(database.url, 'SELECT 1 + 1 AS two')).toEqual([{ two: 2 }]);
    await Promise.all([database.close(), database.close()]);
    await expect(query(database.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  }, START_TIMEOUT_MS);
});
