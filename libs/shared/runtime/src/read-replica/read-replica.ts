import type { Logger } from '@doable/shared-logging';
import { isInfrastructureFailure, type ReadMarks } from '@doable/shared-transport';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { type Lsn, parseLsn } from './lsn';
import { type ReadServer, type ReadSource, readSourceOf, StandbyBehind } from './read-source';
import type { StandbyReading } from './standby-lag';
import { StandbyWatch } from './standby-watch';

export interface ReadReplicaOptions {
  /** DATABASE_REPLICA_WAIT_MS: how long a read waits for the standby to replay its user's mark before it goes to the primary. */
  readonly waitMs: number;
  /** DATABASE_REPLICA_MAX_LAG_MS: past it, the standby serves no reads. */
  readonly maxLagMs: number;
  /** StandbyWatch's poll (tests shorten it). */
  readonly pollMs?: number;
}

/**
 * Why a read went where it did: the `why` of doable_db_reads_total.
 * - standby: `no-mark` (no commit changed the user's data lately), `caught-up` (the standby had
 *   replayed the user's mark), `waited` (it did within DATABASE_REPLICA_WAIT_MS);
 * - primary: `behind` (it did not), `standby-unusable` (down, lagging past the bound, not a
 *   standby, or starting), `marks-unavailable` (the marks could not be read), `standby-failed`
 *   (the read failed there and ran again here), `standby-behind` (the read found the standby
 *   without something it needs, StandbyBehind).
 */
export type ReadRoute =
  | { readonly server: 'standby'; readonly why: 'no-mark' | 'caught-up' | 'waited' }
  | { readonly server: 'primary'; readonly why: 'behind' | 'standby-unusable' | 'marks-unavailable' | 'standby-failed' | 'standby-behind' };

/**
 * SQLSTATEs after which the same read on the primary answers: 40001 and 40P01 (the standby
 * cancelled the query for a conflict with what it was replaying), 57P04 (its database was
 * dropped meanwhile) and 25006 (the read tried to write, which only the primary takes; a bug,
 * logged).
 */
const RETRY_ON_PRIMARY_SQLSTATES: ReadonlySet<string> = new Set(['40001', '40P01', '57P04', '25006']);

/** The SQLSTATE of a failed query (node-postgres's error, or TypeORM's QueryFailedError around it). */
function sqlState(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, driverError } = err as { code?: unknown; driverError?: { code?: unknown } };
  const found = typeof code === 'string' ? code : driverError?.code;
  return typeof found === 'string' ? found : undefined;
}

/** A warning said at most once a minute: a failing store must not write a line per request. */
const WARN_EVERY_MS = 60_000;

/**
 * Reads from a PostgreSQL streaming replica (a hot standby of the primary), with read-your-writes
 * (docs/operations/postgres-replica.md):
 * - after a commit that changed what some users see (their marks moved: sync's users-changed
 *   commits), and before it is answered, `marked` records the primary's log position as each
 *   user's read mark, in a store every replica of the service shares (ReadMarks);
 * - a read for a user (`read`) goes to the standby when it has replayed the user's mark, waiting
 *   up to DATABASE_REPLICA_WAIT_MS for it, and otherwise to the primary;
 * - while the standby is down, lagging past DATABASE_REPLICA_MAX_LAG_MS or no longer a standby,
 *   every read goes to the primary; so does one that fails on the standby, run again there.
 * A read never fails for the standby's sake: the primary answers it.
 */
export class ReadReplica {
  readonly primary: ReadSource;
  readonly watch: StandbyWatch;
  private standby?: DataSource;
  private standbySource?: ReadSource;
  private connecting?: Promise<DataSource>;
  private readonly reads?: Counter<'server' | 'why'>;
  private readonly markFailures?: Counter;
  private readonly warned = new Map<string, number>();

  constructor(
    private readonly primaryDataSource: DataSource,
    /** Makes the standby's pool; called again after a failed first connection. */
    private readonly standbyDataSource: () => DataSource,
    private readonly marks: ReadMarks,
    private readonly options: ReadReplicaOptions,
    private readonly logger: Logger,
    registry?: Registry,
  ) {
    this.primary = readSourceOf('primary', primaryDataSource);
    this.watch = new StandbyWatch(
      { primaryPosition: () => this.primaryPosition(), standbyReading: () => this.standbyReading() },
      { maxLagMs: options.maxLagMs, ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }) },
      logger,
    );
    if (!registry) return;
    this.reads = new Counter({
      name: 'doable_db_reads_total',
      help: 'Reads that may use the read replica, by the server that answered (primary, standby) and why it did (ReadRoute)',
      labelNames: ['server', 'why'],
      registers: [registry],
    });
    this.markFailures = new Counter({
      name: 'doable_db_read_mark_failures_total',
      help: 'Commits whose read marks could not be recorded (their users\' next reads may have waited for the standby, or gone to the primary)',
      registers: [registry],
    });
    const watch = this.watch;
    new Gauge({
      name: 'doable_db_standby_usable',
      help: 'Whether the read replica serves reads (1) or every read goes to the primary (0)',
      registers: [registry],
      collect() {
        this.set(watch.usable ? 1 : 0);
      },
    });
    new Gauge({
      name: 'doable_db_standby_lag_bytes',
      help: 'Write-ahead log the standby had still to replay at its last poll',
      registers: [registry],
      collect() {
        this.set(watch.lagBytes);
      },
    });
  }

  start(): void {
    this.watch.start();
  }

  async close(): Promise<void> {
    await this.watch.stop();
    await this.connecting?.catch(() => undefined);
    if (this.standby?.isInitialized) await this.standby.destroy();
  }

  /**
   * Runs a read of `userId`'s data where it sees every commit that changed it: on the standby when
   * it can, else on the primary. `work` must only read, outside any transaction of the caller.
   */
  async read<T>(userId: string, work: (source: ReadSource) => Promise<T>): Promise<T> {
    const route = await this.route(userId);
    const standby = this.standbySource;
    if (route.server === 'primary' || !standby) return this.onPrimary(route.server === 'primary' ? route.why : 'standby-unusable', work);
    let value: T;
    try {
      value = await work(standby);
    } catch (err) {
      if (err instanceof StandbyBehind) return this.onPrimary('standby-behind', work);
      const state = sqlState(err);
      if (!isInfrastructureFailure(err) && !(state && RETRY_ON_PRIMARY_SQLSTATES.has(state))) throw err;
      if (state === '25006') this.warnOnce('writes', { err }, 'read replica: a read tried to write on the standby (a bug: it must only read); read again on the primary');
      else if (isInfrastructureFailure(err)) this.watch.failed(err);
      return this.onPrimary('standby-failed', work);
    }
    this.count('standby', route.why);
    return value;
  }

  /** Where `userId`'s read would go now, and why (read() and the specs). */
  async route(userId: string): Promise<ReadRoute> {
    if (!this.watch.usable || !this.standbySource) return { server: 'primary', why: 'standby-unusable' };
    let mark: Lsn | undefined;
    try {
      mark = await this.marks.get(userId);
    } catch (err) {
      this.warnOnce('marks', { err: err instanceof Error ? err.message : String(err) }, 'read replica: read marks unavailable; reads go to the primary');
      return { server: 'primary', why: 'marks-unavailable' };
    }
    if (mark === undefined) return { server: 'standby', why: 'no-mark' };
    const reached = await this.watch.reached(mark, this.options.waitMs);
    return reached === 'behind' ? { server: 'primary', why: 'behind' } : { server: 'standby', why: reached };
  }

  /**
   * After a commit that changed what these users see, before it is answered: the primary's log
   * position now (past the commit's record) becomes each one's read mark. Never rejects: the
   * commit stands. When the marks cannot be recorded, the commit waits (up to the lag bound) for
   * the standby to replay it, so a replica that still reads the old marks cannot read around it.
   */
  async marked(userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    let lsn: Lsn;
    try {
      lsn = await this.commitPosition();
    } catch (err) {
      // The primary went away right after the commit: no standby can be ahead of it either.
      this.markFailures?.inc();
      this.warnOnce('position', { err: err instanceof Error ? err.message : String(err) }, 'read replica: the commit position could not be read; its users\' marks stay as they were');
      return;
    }
    try {
      await this.marks.raise(userIds, lsn);
    } catch (err) {
      this.markFailures?.inc();
      const reached = this.watch.usable ? await this.watch.reached(lsn, this.options.maxLagMs) : 'behind';
      this.warnOnce('marks', { err: err instanceof Error ? err.message : String(err), users: userIds.length, standbyReplayed: reached !== 'behind' }, 'read replica: read marks could not be recorded');
    }
  }

  private async onPrimary<T>(why: Extract<ReadRoute, { server: 'primary' }>['why'], work: (source: ReadSource) => Promise<T>): Promise<T> {
    const value = await work(this.primary);
    this.count('primary', why);
    return value;
  }

  private count(server: ReadServer, why: ReadRoute['why']): void {
    this.reads?.inc({ server, why });
  }

  private warnOnce(topic: string, context: Record<string, unknown>, message: string): void {
    const now = Date.now();
    if (now - (this.warned.get(topic) ?? -Infinity) < WARN_EVERY_MS) return;
    this.warned.set(topic, now);
    this.logger.warn(context, message);
  }

  /**
   * pg_current_wal_insert_lsn(): past the record of every commit that has returned, whatever
   * synchronous_commit says (the flushed position, pg_current_wal_lsn(), may not be yet with it
   * off). Read after COMMIT, never inside the transaction: a position read inside it is before
   * the commit's own record, and a standby there has not made the transaction visible.
   */
  private async commitPosition(): Promise<Lsn> {
    const [row] = await this.primaryDataSource.query<Array<{ lsn: string }>>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    return parseLsn(row.lsn);
  }

  private primaryPosition(): Promise<Lsn> {
    return this.commitPosition();
  }

  private async standbyReading(): Promise<StandbyReading> {
    const standby = await this.connected();
    const [row] = await standby.query<Array<{ in_recovery: boolean; replayed: string | null }>>('SELECT pg_is_in_recovery() AS in_recovery, pg_last_wal_replay_lsn()::text AS replayed');
    return { inRecovery: row.in_recovery, replayed: row.replayed === null ? null : parseLsn(row.replayed) };
  }

  /** The standby's pool, made on first use; a standby down at start is tried again at each poll (the service starts all the same). */
  private connected(): Promise<DataSource> {
    if (this.standby?.isInitialized) return Promise.resolve(this.standby);
    this.connecting ??= (async () => {
      const dataSource = this.standbyDataSource();
      try {
        await dataSource.initialize();
      } finally {
        this.connecting = undefined;
      }
      this.standby = dataSource;
      this.standbySource = readSourceOf('standby', dataSource);
      return dataSource;
    })();
    return this.connecting;
  }
}
