#!/usr/bin/env node
// `npm run contracts:snapshot`: writes the record of this release (package.json's version) to
// contracts/releases/<version>.json: every NATS subject's request and reply schemas, every
// event's schema, each schema's migrations and the tables and columns they make (read from a
// throwaway database on TEST_POSTGRES_URL's server, default 127.0.0.1:5432). Run it when making
// a release and commit the file: it is what the next releases are checked against
// (contracts-releases, libs/system release-migrations and release-schema), never a build output.
// A release's record is not rewritten once made: a different one for the same version is
// refused unless `--replace` is given (while that version is not yet released).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildIfStale } from './build.mjs';
import { repoRoot } from './swc-options.mjs';

await buildIfStale();
const require = createRequire(import.meta.url);
const { currentContracts } = require(join(repoRoot, 'dist/libs/contracts/releases/src/index.js'));
const { migrateAllSchemas, readSchemaShape, releaseMigrations } = require(join(repoRoot, 'dist/libs/system/src/index.js'));
const { createTestDatabase } = require(join(repoRoot, 'dist/libs/shared/testing/src/index.js'));

/** The schema the release's migrations make, read from a throwaway database (TEST_POSTGRES_URL's server). */
async function migratedShape(schemas) {
  const database = await createTestDatabase('release_shape', { empty: true });
  try {
    await migrateAllSchemas(database.url);
    return await readSchemaShape(database.url, schemas);
  } finally {
    await database.drop();
  }
}

const { version } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
const migrations = releaseMigrations();
const record = { release: version, contracts: currentContracts(), migrations, schemas: await migratedShape(Object.keys(migrations)) };
const text = `${JSON.stringify(record, null, 2)}\n`;

const dir = join(repoRoot, 'contracts', 'releases');
const file = join(dir, `${version}.json`);
const existing = await readFile(file, 'utf8').catch(() => undefined);
if (existing !== undefined && existing !== text && !process.argv.includes('--replace')) {
  console.error(`${file} already records release ${version} and differs from HEAD: bump the version in package.json first (or pass --replace while ${version} is unreleased)`);
  process.exit(1);
}
await mkdir(dir, { recursive: true });
await writeFile(file, text);
console.log(`${existing === text ? 'unchanged' : 'wrote'} ${file}: ${Object.keys(record.contracts).length} subjects and events, ${Object.values(record.migrations).flat().length} migrations`);
process.exit(0);
