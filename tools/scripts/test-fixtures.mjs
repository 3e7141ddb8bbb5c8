// What every test database starts from, made once per set of migrations and reused by every
// later run until a migration changes (`npm test` calls this after building dist/):
// - a PostgreSQL database with every service's schema migrated, which the integration and
//   cluster tiers copy (CREATE DATABASE ... TEMPLATE) instead of migrating each of their own;
// - an archive of an embedded (PGlite) database migrated the same way, which embedded systems
//   load instead of running PGlite's initdb and the migrations (seconds of WebAssembly each).
// Both are named by the migrations' fingerprint, so a changed migration makes new ones. Test
// runs of several work trees may run at once: each is built under a temporary name and renamed.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './swc-options.mjs';

const require = createRequire(import.meta.url);

/** Answers the environment the test run needs: where the template and the archive are. */
export async function prepareTestFixtures({ distDir = join(repoRoot, 'dist') } = {}) {
  const { migrateAllSchemas, migrationsFingerprint } = require(join(distDir, 'libs/system/src/index.js'));
  const { dumpEmbeddedPostgres } = require(join(distDir, 'libs/shared/database/src/index.js'));
  const { TEST_POSTGRES_ADMIN_URL, TEST_TEMPLATE_DATABASE_ENV } = require(join(distDir, 'libs/shared/testing/src/index.js'));
  const { Client } = require('pg');
  const fingerprint = migrationsFingerprint();
  const started = Date.now();

  const template = `doable_template_${fingerprint}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const exists = async (name) => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
    if (!(await exists(template))) {
      const building = `${template}_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const url = new URL(TEST_POSTGRES_ADMIN_URL);
      url.pathname = `/${building}`;
      await migrateAllSchemas(url.toString());
      try {
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      } catch (err) {
        // Another run made it first: use theirs.
        await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
        if (!(await exists(template))) throw err;
      }
    }
  } finally {
    await admin.end();
  }

  const archive = join(repoRoot, 'tmp', `pglite-migrated-${fingerprint}.tar`);
  if (!(await stat(archive).catch(() => undefined))) {
    await mkdir(join(repoRoot, 'tmp'), { recursive: true });
    await dumpEmbeddedPostgres(archive, (url) => migrateAllSchemas(url));
  }
  const ms = Date.now() - started;
  if (ms > 1000) console.log(`test fixtures (migrations ${fingerprint}) made in ${ms} ms`);
  return { [TEST_TEMPLATE_DATABASE_ENV]: template, DOABLE_TEST_PGLITE_ARCHIVE: archive };
}

/**
 * Removes what the run's shared e2e systems left (tools/jest/shared-systems.environment.cjs names
 * it `shared-<run id>`): their databases and their NATS streams. A worker cannot do it as it exits.
 */
export async function removeRunLeftovers(runId) {
  const { TEST_POSTGRES_ADMIN_URL, TEST_NATS_URL } = require(join(repoRoot, 'dist/libs/shared/testing/src/index.js'));
  const { Client } = require('pg');
  const admin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`doable_shared_${runId}_%`]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  // The embedded systems' file folders (e2e/support/system-under-test.ts names them after the run).
  const prefix = `doable-files-shared-${runId}`;
  for (const name of await readdir(tmpdir())) if (name.startsWith(prefix)) await rm(join(tmpdir(), name), { recursive: true, force: true });
  const { connect } = require('@nats-io/transport-node');
  const { jetstreamManager } = require('@nats-io/jetstream');
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    const marker = `SHARED_${runId}_`;
    for await (const stream of jsm.streams.list()) {
      if (stream.config.name.toUpperCase().replace(/-/g, '_').includes(marker)) await jsm.streams.delete(stream.config.name).catch(() => false);
    }
  } finally {
    await nc.close();
  }
}
