import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import { Client } from 'pg';

/** A reading of the bench database's committed transactions, once the system had gone quiet. */
export interface SettledCommits {
  /** pg_stat_database.xact_commit of the bench database. */
  readonly commits: number;
  /** When it was read (ms, performance.now()). */
  readonly at: number;
  /** Commits per second at rest: the pollers (outbox relays, the webhook worker, schedulers). */
  readonly idlePerSecond: number;
}

const POLL_MS = 1_000;
/** Two seconds in a row within this many commits of each other, and this low, is "at rest". */
const STEADY_WITHIN = 3;
const IDLE_AT_MOST = 40;
const SETTLE_BOUND_MS = 120_000;

/**
 * Counts the COMMITs a piece of work costs the whole system (issue #48: the request's own, the
 * outbox relays', every consumer's), from `pg_stat_database.xact_commit` of the bench database,
 * read on the admin database so the reads do not count. PostgreSQL flushes a backend's counters
 * within about a second of its last transaction, and the consumers go on after the answers, so a
 * reading is taken once the count grows at its resting rate again (the pollers' own commits,
 * subtracted over the time the work took).
 */
export class CommitCounter {
  private constructor(
    private readonly client: Client,
    private readonly database: string,
  ) {}

  static async open(databaseUrl: string): Promise<CommitCounter> {
    const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
    await client.connect();
    return new CommitCounter(client, new URL(databaseUrl).pathname.slice(1));
  }

  /** Waits (bounded) until the count grows at a steady, low rate, and reads it. */
  async settle(): Promise<SettledCommits> {
    const started = performance.now();
    let previous = await this.read();
    let lastDelta = Number.POSITIVE_INFINITY;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const current = await this.read();
      const delta = ((current.commits - previous.commits) * 1000) / (current.at - previous.at);
      if (delta <= IDLE_AT_MOST && Math.abs(delta - lastDelta) <= STEADY_WITHIN) return { ...current, idlePerSecond: (delta + lastDelta) / 2 };
      if (performance.now() - started > SETTLE_BOUND_MS) throw new Error(`the bench database did not go quiet in ${SETTLE_BOUND_MS / 1000} s (${Math.round(delta)} commits/s)`);
      lastDelta = delta;
      previous = current;
    }
  }

  /** The commits between two settled readings beyond the resting rate (the later reading's). */
  static workBetween(before: SettledCommits, after: SettledCommits): number {
    return after.commits - before.commits - (after.idlePerSecond * (after.at - before.at)) / 1000;
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  private async read(): Promise<{ commits: number; at: number }> {
    const { rows } = await this.client.query<{ commits: string }>('SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = $1', [this.database]);
    return { commits: Number(rows[0].commits), at: performance.now() };
  }
}
