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
  /** What writing memory costs, fresh and reused (absent from runs before it was measured). */
  readonly memoryTouch?: MemoryTouch;
}

/**
 * Milliseconds to write one MiB into a buffer never touched before (each page faults in) and
 * into one already touched. The two machine kinds the bench has run on differ here most: where
 * a fresh page costs about 4 µs (a VM whose host reclaims idle memory) every megabyte-sized
 * answer (S3's full sync, S5's list) pays it in PostgreSQL and in Node, and their ratios move
 * with it (issue #48, docs/performance/s3-full-sync.md).
 */
export interface MemoryTouch {
  readonly freshMsPerMiB: number;
  readonly reusedMsPerMiB: number;
}

const TOUCH_BYTES = 4 * 1024 * 1024;
const TOUCH_ROUNDS = 16;

/** The median of TOUCH_ROUNDS writes of a fresh 4 MiB buffer, and of one reused buffer, per MiB. */
export function measureMemoryTouch(): MemoryTouch {
  const perMiB = (fill: () => void) => {
    const times: number[] = [];
    for (let round = 0; round < TOUCH_ROUNDS; round++) {
      const started = process.hrtime.bigint();
      fill();
      times.push(Number(process.hrtime.bigint() - started) / 1e6 / (TOUCH_BYTES / 1024 / 1024));
    }
    times.sort((a, b) => a - b);
    return Math.round(times[TOUCH_ROUNDS / 2] * 1000) / 1000;
  };
  // Kept alive until both are measured, so no fresh buffer reuses the pages of one collected before it.
  const kept: Buffer[] = [];
  const freshMsPerMiB = perMiB(() => kept.push(Buffer.allocUnsafeSlow(TOUCH_BYTES).fill(1)));
  const reused = Buffer.allocUnsafeSlow(TOUCH_BYTES).fill(0);
  const reusedMsPerMiB = perMiB(() => reused.fill(kept.length));
  return { freshMsPerMiB, reusedMsPerMiB };
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
    memoryTouch: measureMemoryTouch(),
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
