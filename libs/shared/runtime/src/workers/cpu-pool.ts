import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { DomainError, type ErrorCode } from '@doable/shared-errors';
import { Piscina } from 'piscina';

export interface CpuPoolOptions {
  /** Worker threads at most (default: half the cores, at least 1: the event loop keeps a core). */
  readonly size?: number;
  /** Tasks waiting for a thread at most; one more is refused with a 503 (default: 4 per thread). */
  readonly maxQueue?: number;
}

/** Seconds a client is told to wait when the pool is full: a queued task takes about this long. */
const RETRY_AFTER_SECONDS = 2;

/** The worker's entry: plain JS, runnable from the sources and from dist/ (see the file). */
const RUNNER = join(__dirname, 'cpu-task-runner.cjs');

/**
 * A bounded pool of worker threads for work a client can size that stays CPU-heavy after
 * streaming (parsing a large JSON, say): run there, it holds a worker, never the event loop
 * every other request shares. Bounded twice: `size` threads run, `maxQueue` tasks wait, and
 * one more is refused with SERVICE_UNAVAILABLE (503 with Retry-After) rather than queued
 * without end. A task names a module exporting `run(input)` (see cpu-task-runner.cjs); keep
 * its input and result small and plain (both are copied between threads).
 */
export class CpuPool {
  private readonly pool: Piscina;
  readonly size: number;
  readonly maxQueue: number;

  constructor(options: CpuPoolOptions = {}) {
    this.size = options.size ?? Math.max(1, Math.floor(availableParallelism() / 2));
    this.maxQueue = options.maxQueue ?? 4 * this.size;
    this.pool = new Piscina({ filename: RUNNER, minThreads: 0, maxThreads: this.size, maxQueue: this.maxQueue, idleTimeout: 30_000 });
  }

  /** Runs `run(input)` of `module` (an absolute path without its extension) on a worker thread. */
  async run<Result>(module: string, input: unknown): Promise<Result> {
    if (this.pool.queueSize >= this.maxQueue) throw this.full();
    let outcome: { value?: Result; refusal?: { code: ErrorCode; message: string; extra: Record<string, unknown> } };
    try {
      outcome = (await this.pool.run({ module, input })) as typeof outcome;
    } catch (err) {
      if (err instanceof Error && /queue is at limit/i.test(err.message)) throw this.full();
      throw err;
    }
    if (outcome.refusal) throw new DomainError(outcome.refusal.code, outcome.refusal.message, outcome.refusal.extra);
    return outcome.value as Result;
  }

  /** Nest's shutdown hook: the pool closes with the service. */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** Waits for running tasks, refuses queued ones, and ends the threads. */
  async close(): Promise<void> {
    await this.pool.close({ force: true });
  }

  private full(): DomainError {
    return new DomainError('SERVICE_UNAVAILABLE', 'Too much heavy work in progress; retry shortly', { retry_after: RETRY_AFTER_SECONDS, reason: 'cpu_pool_full' });
  }
}
