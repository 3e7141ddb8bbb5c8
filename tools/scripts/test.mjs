#!/usr/bin/env node
// `npm test`: build (the standalone-process tests run the compiled apps), then the unit,
// integration and end-to-end tiers in one Jest run. Needs PostgreSQL and NATS with JetStream
// on 127.0.0.1 (see docs/testing.md; `.ci/run` starts them when they are down).
// Extra arguments go to Jest, e.g. `npm test -- --selectProjects unit`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { build } from './build.mjs';
import { repoRoot } from './swc-options.mjs';
import { prepareTestFixtures, removeRunLeftovers } from './test-fixtures.mjs';
import { checkTestPrerequisites } from './test-prerequisites.mjs';

const missing = await checkTestPrerequisites(process.argv.slice(2));
if (missing.length > 0) {
  console.error(`npm test cannot run yet:\n${missing.map((line) => `  - ${line}`).join('\n')}`);
  console.log('\ntests: 0 passed, 1 failed');
  process.exit(1);
}

const { files, ms } = await build();
console.log(`built ${files} files in ${ms} ms`);
const fixtures = await prepareTestFixtures();
// Names what this run's shared e2e systems leave behind, removed below once Jest is done.
const runId = String(process.pid);

const resultsFile = join(repoRoot, 'tmp', 'jest-results.json');
mkdirSync(join(repoRoot, 'tmp'), { recursive: true });
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
// Two test files at once where the machine has two cores or more (DOABLE_TEST_WORKERS overrides):
// the e2e tier waits on I/O between its requests, so a second worker fills the other core. Not
// more by default: every worker holds a shared clustered system and often a suite's own (each a
// pool of PostgreSQL connections per service), and PostgreSQL's default max_connections is 100.
// Each file runs in a worker that is replaced once a file leaves it above 3 GB (a worker holds
// its shared e2e systems, tools/jest/shared-systems.environment.cjs, which a replacement starts
// again): run in band, one process grew to over 4 GB by the end of the suite, and its
// collections then stalled timers and connections long enough to fail late specs.
const workers = Number(process.env.DOABLE_TEST_WORKERS ?? Math.max(1, Math.min(availableParallelism(), 2)));
// --forceExit: a handle a failed spec left open (a NATS connection, seen once) must not keep the
// run from ending; the suites close what they open, and a leak shows as Jest's warning instead.
const run = spawnSync(process.execPath, [jest, '--ci', `--maxWorkers=${workers}`, '--workerIdleMemoryLimit=3GB', '--forceExit', '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: 'inherit',
  // PGlite (the embedded database) loads Node built-ins with dynamic import(), which Jest's
  // module sandbox allows only with VM modules enabled.
  env: { ...process.env, ...fixtures, DOABLE_TEST_RUN_ID: runId, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --disable-warning=ExperimentalWarning`.trim() },
});

await removeRunLeftovers(runId).catch((err) => console.error(`could not remove the run's shared systems' databases and streams: ${err.message}`));

try {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
  console.log(`\ntests: ${results.numPassedTests} passed, ${failed} failed`);
} catch {
  console.log('\ntests: 0 passed, 1 failed');
}
process.exit(run.status ?? 1);
