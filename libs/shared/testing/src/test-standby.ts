import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-port';
import { TEST_POSTGRES_ADMIN_URL } from './test-database';
import { waitFor } from './wait-for';

const run = promisify(execFile);

/**
 * A hot standby of the test server (streaming replication), for the read-replica specs and the
 * bench: `pg_basebackup -R` of the running server into a temporary folder, started on a free
 * port, removed by stop(). Every database of the primary is on it, under the same name.
 */
export interface TestStandby {
  readonly port: number;
  /** The same database on the standby (what DATABASE_REPLICA_URL names). */
  urlOf(databaseName: string): string;
  /** pg_wal_replay_pause(): the standby keeps receiving the log but applies nothing more. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the standby has replayed everything the primary had written when this was called. */
  caughtUp(boundMs?: number): Promise<void>;
  /** Runs one query on the standby (a database of the primary's, by name). */
  query<T>(databaseName: string, sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops the server (`pg_ctl stop -m fast`) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** The OS user that owns the server's files: pg_ctl refuses to run as root, so root runs it as this one. */
const POSTGRES_OS_USER = 'postgres';

/**
 * What the primary lacks for a streaming replica, each as what to set: empty when it has all.
 * Checked by connecting as a standby would (a physical replication connection from 127.0.0.1).
 * `npm test` adds the pg_hba.conf line to the machine's own server itself (tools/scripts/test-prerequisites.mjs).
 */
export async function replicationProblems(adminUrl = TEST_POSTGRES_ADMIN_URL): Promise<string[]> {
  const problems: string[] = [];
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const setting = async (name: string) => (await admin.query<{ setting: string }>('SELECT setting FROM pg_settings WHERE name = $1', [name])).rows[0]?.setting ?? '';
    if (!['replica', 'logical'].includes(await setting('wal_level'))) problems.push(`wal_level is ${await setting('wal_level')}: set wal_level = replica in postgresql.conf and restart PostgreSQL`);
    const senders = Number(await setting('max_wal_senders'));
    const inUse = Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_replication')).rows[0].n);
    if (senders <= inUse) problems.push(`max_wal_senders is ${senders} and ${inUse} in use: set max_wal_senders = ${inUse + 4} in postgresql.conf and restart PostgreSQL`);
    const hbaFile = await setting('hba_file');
    const replication = new Client({ connectionString: adminUrl, replication: 'true' } as ConstructorParameters<typeof Client>[0]);
    try {
      await replication.connect();
      await replication.query('IDENTIFY_SYSTEM');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      problems.push(
        /pg_hba/.test(message)
          ? `replication connections from 127.0.0.1 are refused (${message}): add "host replication all 127.0.0.1/32 trust" to ${hbaFile} and run SELECT pg_reload_conf()`
          : `a replication connection failed: ${message}`,
      );
    } finally {
      await replication.end().catch(() => undefined);
    }
  } finally {
    await admin.end();
  }
  return problems;
}

/** The server's own programs (Debian keeps them out of PATH): /usr/lib/postgresql/<major>/bin, else PATH. */
function postgresProgram(major: number, name: string): string {
  const packaged = `/usr/lib/postgresql/${major}/bin/${name}`;
  return existsSync(packaged) ? packaged : name;
}

/** Starts a hot standby of the test server; throws, saying what to set, when the server cannot have one. */
export async function startTestStandby(adminUrl = TEST_POSTGRES_ADMIN_URL): Promise<TestStandby> {
  const problems = await replicationProblems(adminUrl);
  if (problems.length > 0) throw new Error(`the test PostgreSQL cannot stream to a standby:\n  - ${problems.join('\n  - ')}`);

  const primary = new URL(adminUrl);
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  // A hot standby needs these at least as high as its primary's, or it refuses to start.
  const names = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction', 'server_version_num'];
  const settings = Object.fromEntries((await admin.query<{ name: string; setting: string }>('SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [names])).rows.map((row) => [row.name, row.setting]));
  await admin.end();
  const major = Math.floor(Number(settings['server_version_num']) / 10_000);

  const asRoot = process.getuid?.() === 0;
  const folder = mkdtempSync(join(tmpdir(), 'doable-standby-'));
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'server.log');
  const owner = asRoot ? await osUser(POSTGRES_OS_USER) : undefined;
  if (owner) chownSync(folder, owner.uid, owner.gid);
  chmodSync(folder, 0o700);
  // Run from the folder: the postgres user may not enter the caller's working directory.
  const exec = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', POSTGRES_OS_USER, '--', postgresProgram(major, program), ...args], { cwd: folder }) : run(postgresProgram(major, program), args, { cwd: folder });

  const port = await freePort();
  let started = false;
  const stop = async () => {
    if (started) {
      started = false;
      await exec('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']).catch(() => exec('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']).catch(() => undefined));
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    // -R: standby.signal and primary_conninfo; -X stream: the log written meanwhile; -c fast: no wait for a spread checkpoint.
    await exec('pg_basebackup', ['-h', primary.hostname, '-p', primary.port || '5432', '-U', decodeURIComponent(primary.username || 'postgres'), '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    // Debian keeps postgresql.conf and pg_hba.conf in /etc, so the copy has none: the standby's own.
    const conf = [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${folder}'`,
      'hot_standby = on',
      ...['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'].map((name) => `${name} = ${settings[name]}`),
      'shared_buffers = 32MB',
      // A test server: nothing to keep across a crash.
      'fsync = off',
      'full_page_writes = off',
      'logging_collector = off',
    ];
    writeFileSync(join(dataDir, 'postgresql.conf'), `${conf.join('\n')}\n`);
    writeFileSync(join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    writeFileSync(join(dataDir, 'pg_ident.conf'), '');
    if (owner) for (const file of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) chownSync(join(dataDir, file), owner.uid, owner.gid);
    await exec('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
    started = true;
  } catch (err) {
    await stop();
    throw err;
  }

  const urlOf = (databaseName: string) => {
    const url = new URL(adminUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    url.pathname = `/${databaseName}`;
    return url.toString();
  };
  const query = async <T>(databaseName: string, sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: urlOf(databaseName) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const standbyDb = primary.pathname.slice(1) || 'postgres';
  await waitFor(async () => (await query<{ standby: boolean }>(standbyDb, 'SELECT pg_is_in_recovery() AS standby'))[0].standby, 'the standby to accept connections in recovery', 60_000).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return {
    port,
    urlOf,
    query,
    pauseReplay: async () => {
      await query(standbyDb, 'SELECT pg_wal_replay_pause()');
      await waitFor(async () => (await query<{ state: string }>(standbyDb, 'SELECT pg_get_wal_replay_pause_state() AS state'))[0].state === 'paused', 'replay to pause');
    },
    resumeReplay: async () => {
      await query(standbyDb, 'SELECT pg_wal_replay_resume()');
    },
    caughtUp: async (boundMs = 60_000) => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      const target = (await client.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
      await client.end();
      await waitFor(async () => (await query<{ done: boolean }>(standbyDb, 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [target]))[0].done, `the standby to replay up to ${target}`, boundMs);
    },
    stop,
  };
}

async function osUser(name: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
