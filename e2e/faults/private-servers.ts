import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@doable/shared-testing';

/**
 * A PostgreSQL cluster and a NATS server of the fault suite's own, on free ports: the suite
 * stops and restarts them, which it must never do to the machine's shared servers (5432/4222)
 * that other test runs use.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';
const NATS_SERVER = '/usr/sbin/nats-server';

/** initdb refuses to run as root: the cluster belongs to the postgres user then. */
function asClusterOwner(command: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  execFileSync(root ? 'runuser' : command, root ? ['-u', 'postgres', '--', command, ...args] : args, { stdio: 'pipe' });
}

export interface PrivatePostgres {
  readonly url: string;
  /** `pg_ctl stop -m immediate`: every backend killed, no checkpoint (a crash, as far as clients see). */
  stopImmediate(): void;
  start(): void;
  destroy(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'doable-faults-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  const data = join(dir, 'data');
  const port = await freePort();
  asClusterOwner(`${PG_BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const start = () => asClusterOwner(`${PG_BIN}/pg_ctl`, ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/doable`,
    stopImmediate: () => asClusterOwner(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    destroy() {
      try {
        asClusterOwner(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateNats {
  readonly url: string;
  /** SIGTERM and wait: the server goes away; JetStream's store stays on disk. */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateNats(): Promise<PrivateNats> {
  const store = mkdtempSync(join(tmpdir(), 'doable-faults-nats-'));
  if (process.getuid?.() === 0) chownSync(store, 0, 0);
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    const child = spawn(NATS_SERVER, ['-js', '-sd', store, '-a', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    server = child;
    let log = '';
    await new Promise<void>((ok, fail) => {
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Server is ready')) ok();
      });
      child.once('exit', (code) => fail(new Error(`nats-server exited ${code}: ${log}`)));
    });
  };
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
