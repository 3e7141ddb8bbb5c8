import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import { Client } from 'pg';
import { REPO_ROOT } from './processes';

export interface Machine {
  readonly date: string;
  readonly nproc: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
  readonly postgres: string;
  /** What was measured: the commit, and whether the working tree had changes on top of it. */
  readonly revision: string;
  /** 1-minute load average when the run started: a busy shared machine shows here. */
  readonly loadAverageAtStart: number;
}

export async function describeMachine(): Promise<Machine> {
  let postgres = 'unknown';
  const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  try {
    await client.connect();
    postgres = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
  } catch {
    // Reported as unknown; the run itself will fail loudly if PostgreSQL is really down.
  } finally {
    await client.end().catch(() => undefined);
  }
  return {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: release(),
    postgres,
    revision: process.env['BENCH_REVISION'] ?? gitRevision(),
    loadAverageAtStart: Math.round(loadavg()[0] * 100) / 100,
  };
}

function gitRevision(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') === '' ? '' : ' + uncommitted changes'}`;
  } catch {
    return 'unknown (not a git checkout; set BENCH_REVISION)';
  }
}
