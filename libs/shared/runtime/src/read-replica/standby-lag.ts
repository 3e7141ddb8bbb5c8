import type { Lsn } from './lsn';

/** The primary's write position, read at `at` (ms on a monotonic clock). */
export interface PrimarySample {
  readonly at: number;
  readonly lsn: Lsn;
}

/** What the standby answered: whether it is one (in recovery), and how far it has replayed. */
export interface StandbyReading {
  readonly inRecovery: boolean;
  /** pg_last_wal_replay_lsn(): null on a server that is not a standby. */
  readonly replayed: Lsn | null;
}

/** Why reads are not sent to the standby. */
export type StandbyUnusable = 'starting' | 'unreachable' | 'not-a-standby' | 'lagging';

export type StandbyVerdict = { readonly usable: true } | { readonly usable: false; readonly reason: StandbyUnusable };

/**
 * The lag rule. Time-based lag as PostgreSQL reports it (now() - pg_last_xact_replay_timestamp())
 * grows while the primary is idle, and a standby with nothing to replay is not behind; so the
 * lag is measured in positions instead: the primary's position is sampled every poll, and the
 * standby is within the bound while it has replayed everything the primary had written
 * `maxLagMs` ago. A standby past the bound stops serving reads for everyone, which is also what
 * makes a lapsed read mark safe to forget (kv-read-marks.ts READ_MARKS_TTL_MS).
 */
export class PrimarySamples {
  private samples: PrimarySample[] = [];

  constructor(private readonly maxLagMs: number) {}

  add(sample: PrimarySample): void {
    this.samples.push(sample);
    // Keep one sample at least maxLagMs old (the one the rule compares with), none older.
    const boundary = sample.at - this.maxLagMs;
    let firstKept = 0;
    while (firstKept + 1 < this.samples.length && this.samples[firstKept + 1].at <= boundary) firstKept++;
    if (firstKept > 0) this.samples = this.samples.slice(firstKept);
  }

  /**
   * The position the standby must have replayed at `now`: the primary's `maxLagMs` ago, or,
   * until samples go back that far, the oldest one taken before `now` (a standby just started
   * must first reach where the primary was when this process began watching).
   */
  required(now: number): Lsn | undefined {
    const before = this.samples.filter((sample) => sample.at < now);
    if (before.length === 0) return undefined;
    const old = before.filter((sample) => sample.at <= now - this.maxLagMs);
    return (old.length > 0 ? old[old.length - 1] : before[0]).lsn;
  }

  /** The primary's last known position (what the lag gauge compares the standby with). */
  latest(): Lsn | undefined {
    return this.samples.at(-1)?.lsn;
  }
}

/** The verdict on a standby's reading at `now`. */
export function judgeStandby(reading: StandbyReading, required: Lsn | undefined): StandbyVerdict {
  // A promoted standby is a primary of its own whose data forked away: never read from it.
  if (!reading.inRecovery || reading.replayed === null) return { usable: false, reason: 'not-a-standby' };
  if (required === undefined) return { usable: false, reason: 'starting' };
  return reading.replayed >= required ? { usable: true } : { usable: false, reason: 'lagging' };
}
