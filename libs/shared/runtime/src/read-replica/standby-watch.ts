import type { Logger } from '@doable/shared-logging';
import type { Lsn } from './lsn';
import { judgeStandby, PrimarySamples, type StandbyReading, type StandbyUnusable, type StandbyVerdict } from './standby-lag';

export interface StandbyWatchOptions {
  /** DATABASE_REPLICA_MAX_LAG_MS: past it, the standby serves no reads. */
  readonly maxLagMs: number;
  /** How often the primary's position and the standby's are read (default: a quarter of the lag bound, 100 ms to 1 s). */
  readonly pollMs?: number;
  /** How often a read waiting for the standby asks it again (default 5 ms). */
  readonly chaseMs?: number;
}

/** How a wait for the standby ended: it had the position (at once, or within the wait), or not. */
export type Reached = 'caught-up' | 'waited' | 'behind';

interface Waiter {
  readonly lsn: Lsn;
  readonly deadline: number;
  readonly resolve: (reached: Reached) => void;
}

/** The two questions the watch asks, as functions (the real ones are queries; the unit specs give their own). */
export interface StandbyProbes {
  /** The primary's position now (pg_current_wal_lsn()). */
  primaryPosition(): Promise<Lsn>;
  /** The standby's state now (pg_is_in_recovery(), pg_last_wal_replay_lsn()); rejects when it does not answer. */
  standbyReading(): Promise<StandbyReading>;
}

const MONOTONIC = () => performance.now();

function describeError(err: unknown): string {
  return err instanceof Error ? err.message : JSON.stringify(err);
}

/**
 * Knows, within a poll, whether the standby may serve reads (StandbyVerdict: reachable, still a
 * standby, within the lag bound) and how far it has replayed; and answers whether it has
 * replayed a position, waiting a bounded time for it. Changes of the verdict are logged once
 * each, not per read.
 *
 * The replayed position is only ever a lower bound: it is read before the read it admits runs,
 * and a standby's snapshot taken after that includes every commit replayed by then.
 */
export class StandbyWatch {
  private verdict: StandbyVerdict = { usable: false, reason: 'starting' };
  private replayedLsn: Lsn = 0n;
  private readonly samples: PrimarySamples;
  private readonly waiters = new Set<Waiter>();
  private readonly pollMs: number;
  private readonly chaseMs: number;
  private timer?: NodeJS.Timeout;
  private chasing = false;
  private ticking?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly probes: StandbyProbes,
    private readonly options: StandbyWatchOptions,
    private readonly logger: Logger,
    private readonly now: () => number = MONOTONIC,
  ) {
    this.samples = new PrimarySamples(options.maxLagMs);
    this.pollMs = options.pollMs ?? Math.min(1_000, Math.max(100, Math.floor(options.maxLagMs / 4)));
    this.chaseMs = options.chaseMs ?? 5;
  }

  /** Polls until stop(); the first poll at once. */
  start(): void {
    if (this.timer || this.stopped) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    for (const waiter of this.waiters) waiter.resolve('behind');
    this.waiters.clear();
    await this.ticking;
  }

  get usable(): boolean {
    return this.verdict.usable;
  }

  /** Why the standby serves no reads now; undefined while it does. */
  get unusableReason(): StandbyUnusable | undefined {
    return this.verdict.usable ? undefined : this.verdict.reason;
  }

  /** The furthest position the standby was seen to have replayed. */
  get replayed(): Lsn {
    return this.replayedLsn;
  }

  /** Bytes of log the standby had still to replay at the last poll (0 when caught up or unknown). */
  get lagBytes(): number {
    const latest = this.samples.latest();
    return latest !== undefined && latest > this.replayedLsn ? Number(latest - this.replayedLsn) : 0;
  }

  /**
   * Whether the standby has replayed `lsn`: at once when already seen; otherwise it is asked
   * again every chaseMs (one query for all the reads waiting) until it has, or `waitMs` is up.
   */
  reached(lsn: Lsn, waitMs: number): Promise<Reached> {
    if (this.replayedLsn >= lsn) return Promise.resolve('caught-up');
    if (this.stopped) return Promise.resolve('behind');
    return new Promise((resolve) => {
      this.waiters.add({ lsn, deadline: this.now() + waitMs, resolve });
      void this.chase();
    });
  }

  /** A read on the standby failed as an outage would: no reads go there until a poll finds it answering. */
  failed(err: unknown): void {
    this.judge({ usable: false, reason: 'unreachable' }, err);
  }

  /** One poll: the bound to meet (from earlier samples), the primary's position now, then the standby's. */
  tick(): Promise<void> {
    this.ticking ??= this.poll().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async poll(): Promise<void> {
    const required = this.samples.required(this.now());
    try {
      this.samples.add({ at: this.now(), lsn: await this.probes.primaryPosition() });
    } catch {
      // The primary not answering is the primary's problem (its reads fail too): the standby is judged on what is known.
    }
    let reading: StandbyReading;
    try {
      reading = await this.probes.standbyReading();
    } catch (err) {
      this.judge({ usable: false, reason: 'unreachable' }, err);
      return;
    }
    this.note(reading.replayed);
    this.judge(judgeStandby(reading, required));
  }

  /** Asks the standby for its position while reads wait for one, settling each as it is reached or its wait runs out. */
  private async chase(): Promise<void> {
    if (this.chasing) return;
    this.chasing = true;
    try {
      let first = true;
      while (this.waiters.size > 0 && !this.stopped) {
        if (!first) await new Promise((resolve) => setTimeout(resolve, this.chaseMs));
        try {
          this.note((await this.probes.standbyReading()).replayed);
        } catch (err) {
          this.failed(err);
          this.settle(() => 'behind');
          return;
        }
        const now = this.now();
        const wasFirst = first;
        first = false;
        this.settle((waiter) => (this.replayedLsn >= waiter.lsn ? (wasFirst ? 'caught-up' : 'waited') : waiter.deadline <= now ? 'behind' : undefined));
      }
    } finally {
      this.chasing = false;
    }
  }

  private settle(outcome: (waiter: Waiter) => Reached | undefined): void {
    for (const waiter of [...this.waiters]) {
      const reached = outcome(waiter);
      if (reached === undefined) continue;
      this.waiters.delete(waiter);
      waiter.resolve(reached);
    }
  }

  private note(replayed: Lsn | null): void {
    if (replayed !== null && replayed > this.replayedLsn) this.replayedLsn = replayed;
  }

  /** Takes a verdict, logging only a change (and not the first "in use" after starting). */
  private judge(verdict: StandbyVerdict, err?: unknown): void {
    const before = this.verdict;
    this.verdict = verdict;
    if (verdict.usable) {
      if (!before.usable && before.reason !== 'starting') this.logger.info({ was: before.reason }, 'read replica: the standby serves reads again');
      else if (!before.usable) this.logger.info('read replica: the standby serves reads');
      return;
    }
    if (!before.usable && before.reason === verdict.reason) return;
    const context = { reason: verdict.reason, maxLagMs: this.options.maxLagMs, lagBytes: this.lagBytes, ...(err === undefined ? {} : { err: describeError(err) }) };
    this.logger.warn(context, 'read replica: reads go to the primary until the standby is usable again');
  }
}
