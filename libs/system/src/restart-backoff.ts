/**
 * How long a supervisor waits before starting a crashed process again, as Kubernetes does for a
 * pod in CrashLoopBackOff: 1 s, 2 s, 4 s... up to a cap, back to the first step once the process
 * has stayed up a while. A process that cannot start (its database is down) is retried for as
 * long as it takes, never given up on, and costs a restart every `maxMs` at most.
 */
export interface RestartBackoffOptions {
  readonly initialMs?: number;
  readonly maxMs?: number;
  /** Up this long since its last start: the next crash counts as the first again. */
  readonly resetAfterMs?: number;
}

export class RestartBackoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly resetAfterMs: number;
  private failures = 0;
  private startedAt: number | undefined;

  constructor(options: RestartBackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 1_000;
    this.maxMs = options.maxMs ?? 30_000;
    this.resetAfterMs = options.resetAfterMs ?? 60_000;
  }

  /** The process was started (now). */
  started(now = Date.now()): void {
    this.startedAt = now;
  }

  /** The process exited (now): how long to wait before the next start. */
  exited(now = Date.now()): number {
    if (this.startedAt !== undefined && now - this.startedAt >= this.resetAfterMs) this.failures = 0;
    const delay = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    return delay;
  }

  /** Restarts in a row so far without a long enough run between them. */
  get crashes(): number {
    return this.failures;
  }
}
