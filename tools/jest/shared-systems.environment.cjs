// The e2e tier's Jest environment: Node's, plus one running system per mode for this worker
// process, started by the first suite that asks and kept for every later suite the worker runs.
// Jest gives each test file a fresh module registry, so a system started inside a suite dies with
// it; this module is loaded once per worker by Node itself, so what it holds outlives the files.
// It runs the compiled code (dist/, which `npm test` builds first): it is outside Jest's
// transform and alias mapping. Suites reach it through e2e/support/use-system.ts, and isolate
// themselves by accounts: every suite makes its own.
const { join } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

const SYSTEM_UNDER_TEST = join(__dirname, '../../dist/e2e/support/system-under-test.js');

/** mode -> the system's start (a promise, so suites asking at once share one start). */
const systems = new Map();

/**
 * What the suites of this run leave in PostgreSQL and NATS is named after the run
 * (tools/scripts/test.mjs removes it when Jest is done): a worker cannot clean up as it exits.
 */
const label = `shared-${process.env.DOABLE_TEST_RUN_ID ?? process.pid}`;

function sharedSystem(mode) {
  let started = systems.get(mode);
  if (!started) {
    const { startSystem } = require(SYSTEM_UNDER_TEST);
    started = startSystem(mode, { label });
    // A start that failed is tried again by the next suite rather than failing every one.
    started.catch(() => systems.delete(mode));
    systems.set(mode, started);
  }
  return started;
}

/**
 * A system of one suite's own (its settings, or services it stops), started from the same
 * compiled code: loading the services into a suite's module registry costs seconds of CPU per
 * file, which the worker's Node loads once. Named after the run, so what a suite that crashed
 * left is removed with the shared systems'.
 */
function ownSystem(mode, options = {}) {
  const { startSystem } = require(SYSTEM_UNDER_TEST);
  return startSystem(mode, { ...options, label: `${label}-own` });
}

class SharedSystemsEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    this.global.__doableSharedSystem = sharedSystem;
    this.global.__doableOwnSystem = ownSystem;
  }
}

module.exports = SharedSystemsEnvironment;
