// What `npm test` needs before its first test, checked in a few seconds instead of discovered
// after thirty minutes: PostgreSQL (taking replication connections from 127.0.0.1, for the
// read-replica specs' standby), NATS with JetStream, and the Chromium the OAuth and MCP
// browser suites drive. A server that is installed but stopped is started the way .ci/run
// starts it; anything else missing stops the run at once with one line per piece saying how to
// get it. TEST_POSTGRES_URL, TEST_NATS_URL and CHROMIUM_PATH point elsewhere (then nothing is started).
import { execFileSync } from 'node:child_process';
import { accessSync, appendFileSync, constants, existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect as tcpConnect } from 'node:net';

const require = createRequire(import.meta.url);
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function postgresAnswers() {
  const { Client } = require('pg');
  const client = new Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** NATS that answers and has JetStream (streams and the Object Store are used by every cluster suite). */
async function natsState() {
  const { connect } = require('@nats-io/transport-node');
  const { jetstreamManager } = require('@nats-io/jetstream');
  let nc;
  try {
    nc = await connect({ servers: NATS_URL, timeout: 2000, reconnect: false });
  } catch {
    return 'down';
  }
  try {
    await (await jetstreamManager(nc, { timeout: 2000 })).getAccountInfo();
    return 'ok';
  } catch {
    return 'no-jetstream';
  } finally {
    await nc.close().catch(() => undefined);
  }
}

function portOpen(host, port) {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port, timeout: 1000 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Runs a start command if its program is installed; answers whether it ran. */
function tryStart(program, args) {
  if (!existsSync(program)) return false;
  try {
    execFileSync(program, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(500);
  }
  return false;
}

async function ensurePostgres() {
  if (await postgresAnswers()) return undefined;
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
  if (!process.env.TEST_POSTGRES_URL && versions.length > 0 && tryStart('/usr/bin/pg_ctlcluster', ['--skip-systemctl-redirect', versions[0], 'main', 'start'])) {
    console.log(`started PostgreSQL ${versions[0]}`);
    if (await waitUntil(postgresAnswers)) return undefined;
  }
  return `PostgreSQL does not answer at ${POSTGRES_URL}: install it (apt-get install postgresql, trust authentication for 127.0.0.1) and start it, or set TEST_POSTGRES_URL`;
}

/** The line a standby's connection needs in pg_hba.conf (Debian's has none for replication). */
const REPLICATION_HBA_LINE = 'host replication all 127.0.0.1/32 trust';

/** Why a physical replication connection (what pg_basebackup and a standby open) fails, or undefined when it works. */
async function replicationRefusal() {
  const { Client } = require('pg');
  const client = new Client({ connectionString: POSTGRES_URL, replication: 'true', connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('IDENTIFY_SYSTEM');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(sql) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The read-replica specs stream a hot standby from the test server (libs/shared/testing
 * test-standby.ts), which takes a replication connection from 127.0.0.1. On this machine's own
 * server (not TEST_POSTGRES_URL) a missing pg_hba.conf line is added and the configuration
 * reloaded, as a fresh CI machine needs; anything else is said, not changed (wal_level and
 * max_wal_senders need a restart; PostgreSQL's defaults have both).
 */
async function ensureReplication() {
  const refusal = await replicationRefusal();
  if (refusal === undefined) return undefined;
  if (/pg_hba/.test(refusal) && !process.env.TEST_POSTGRES_URL) {
    const [{ hba_file: hbaFile }] = await adminQuery('SHOW hba_file');
    try {
      accessSync(hbaFile, constants.W_OK);
      appendFileSync(hbaFile, `\n# Added by doable's tools/scripts/test-prerequisites.mjs: the read-replica specs stream a standby from this server.\n${REPLICATION_HBA_LINE}\n`);
      await adminQuery('SELECT pg_reload_conf()');
      console.log(`allowed PostgreSQL replication connections from 127.0.0.1 (${REPLICATION_HBA_LINE} in ${hbaFile})`);
      if ((await replicationRefusal()) === undefined) return undefined;
    } catch {
      // Not writable here: said below.
    }
    return `PostgreSQL refuses replication connections from 127.0.0.1 (the read-replica specs need one): add "${REPLICATION_HBA_LINE}" to ${hbaFile} and run SELECT pg_reload_conf()`;
  }
  return `PostgreSQL at ${POSTGRES_URL} refuses a replication connection (the read-replica specs need one): ${refusal}; it needs wal_level = replica, max_wal_senders above 0 and a pg_hba.conf line "${REPLICATION_HBA_LINE}"`;
}

async function ensureNats() {
  const state = await natsState();
  if (state === 'ok') return undefined;
  if (state === 'no-jetstream') return `NATS at ${NATS_URL} has no JetStream: restart it with -js (nats-server -a 127.0.0.1 -p 4222 -js -sd <dir>)`;
  const local = !process.env.TEST_NATS_URL && !(await portOpen('127.0.0.1', 4222));
  if (local && tryStart('/usr/sbin/start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', '/usr/sbin/nats-server', '--', '-a', '127.0.0.1', '-p', '4222', '-js', '-sd', '/var/lib/nats-server', '-l', '/var/log/nats-server.log'])) {
    console.log('started NATS with JetStream');
    if (await waitUntil(async () => (await natsState()) === 'ok')) return undefined;
  }
  return `NATS with JetStream does not answer at ${NATS_URL}: install nats-server 2.9+ (apt-get install nats-server) and run it with -js, or set TEST_NATS_URL`;
}

function checkChromium() {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return undefined;
  } catch {
    return `Chromium is not at ${CHROMIUM} (the OAuth consent and MCP suites drive it): apt-get install chromium, or set CHROMIUM_PATH`;
  }
}

/**
 * Whether the run reaches a browser suite (e2e/mcp, e2e/oauth-flow): the whole suite does, a run
 * of one tier or of named files only if it names one of them.
 */
export function runNeedsChromium(jestArgs) {
  const projects = [];
  const patterns = [];
  let otherConfig = false;
  for (let index = 0; index < jestArgs.length; index++) {
    const arg = jestArgs[index];
    if (arg === '--selectProjects') {
      while (jestArgs[index + 1] !== undefined && !jestArgs[index + 1].startsWith('-')) projects.push(jestArgs[++index]);
    } else if (arg === '--config' || arg === '-c') {
      // Another suite's configuration (the fault suite): only what it names.
      otherConfig = true;
      index++;
    } else if (arg === '-t' || arg === '--testNamePattern') {
      index++;
    } else if (!arg.startsWith('-')) {
      patterns.push(arg);
    }
  }
  if (projects.length > 0 && !projects.includes('e2e')) return false;
  return (patterns.length === 0 && !otherConfig) || patterns.some((pattern) => /mcp|oauth|e2e\/?$/.test(pattern));
}

/** Answers the lines saying what is missing for this run (Jest's arguments); empty when everything is there. */
export async function checkTestPrerequisites(jestArgs = []) {
  const postgres = await ensurePostgres();
  const missing = [postgres, postgres === undefined ? await ensureReplication() : undefined, await ensureNats(), runNeedsChromium(jestArgs) ? checkChromium() : undefined];
  return missing.filter((line) => line !== undefined);
}
