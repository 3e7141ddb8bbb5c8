import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@doable/shared-testing';

/**
 * A PostgreSQL cluster and a NATS server of the fault suite's own, on free ports: the suite
 * stops and restarts them, which it must never do to the machine's shared servers (5432/4222)
 * that other test runs use.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';

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

export { type PrivateNats, startPrivateNats } from '@doable/shared-testing';
