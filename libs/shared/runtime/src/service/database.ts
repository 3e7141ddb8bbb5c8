import type { EventSubject } from '@doable/contracts-common';
import { type OutboxRelay, OutboxWriter } from '@doable/shared-database';
import type { DataSource, EntityManager } from 'typeorm';
import type { ReadReplica } from '../read-replica/read-replica';
import { type ReadSource, readSourceOf } from '../read-replica/read-source';
import { BatchFailedOptimistically, type UnitAttempt, UnitSavepoints } from './unit-savepoints';

export type { UnitAttempt } from './unit-savepoints';

/** A unit of work: the transaction's own manager, and `emit` to record events in it. */
export interface Tx {
  readonly manager: EntityManager;
  emit<P>(event: EventSubject<P>, payload: P): Promise<string>;
  /** Several events of one subject in one statement (OutboxWriter.enqueueAll); nothing for none. */
  emitAll<P>(event: EventSubject<P>, payloads: readonly P[]): Promise<string[]>;
  /**
   * Runs `wake` once the transaction has committed (never after a rollback): to tell in-process
   * work that rows it looks for are now visible, instead of leaving them to its next poll.
   */
  afterCommit(wake: () => void): void;
}

/**
 * Told, after a transaction commits and before it returns, the payloads of one event subject it
 * emitted. For what must hold before the caller is answered and cannot wait for the outbox's
 * relay (the gateways' cached no-change answers). It must not reject: the work has committed.
 */
export type CommitObserver<P> = (payloads: readonly P[]) => Promise<void>;

/** What a unit of work asked for once it has committed: the relay woken, its wakes, its observed payloads. */
class CommitEffects {
  emitted = false;
  readonly wakes: Array<() => void> = [];
  readonly observed = new Map<string, unknown[]>();

  observe(name: string, payloads: readonly unknown[]): void {
    const list = this.observed.get(name);
    if (list) list.push(...payloads);
    else this.observed.set(name, [...payloads]);
  }

  /** A unit that held (its savepoint released): what it asked for is the transaction's too. */
  adopt(unit: CommitEffects): void {
    this.emitted ||= unit.emitted;
    this.wakes.push(...unit.wakes);
    for (const [name, payloads] of unit.observed) this.observe(name, payloads);
  }
}

/**
 * A service's database handle. Transactions that emit events wake the outbox relay after they
 * commit, so events go out at once instead of at the next poll.
 */
export class Database {
  private readonly outbox: OutboxWriter;
  private readonly observers = new Map<string, CommitObserver<unknown>>();
  /** The primary as a place to read (Database.read's answer without a replica, and reads that must see the caller's own write). */
  readonly primary: ReadSource;

  constructor(
    readonly dataSource: DataSource,
    readonly schema: string,
    readonly relay: OutboxRelay,
    /** The streaming replica the service's large reads may use (cluster mode, DATABASE_REPLICA_URL). */
    readonly readReplica?: ReadReplica,
  ) {
    this.outbox = new OutboxWriter(schema);
    this.primary = readSourceOf('primary', dataSource);
  }

  /**
   * A read of a user's data that may go to the read replica: there when it has replayed every
   * commit that changed what the user sees (recorded by markCommitted), otherwise on the primary
   * (ReadReplica). `work` must only read, and never runs inside a transaction of the caller's.
   * Without a replica it runs on the primary.
   */
  read<T>(userId: string, work: (source: ReadSource) => Promise<T>): Promise<T> {
    return this.readReplica ? this.readReplica.read(userId, work) : work(this.primary);
  }

  /**
   * After a commit that changed what these users see, before it is answered: their next reads
   * wait for the replica to replay it, or go to the primary. Nothing without a replica.
   */
  markCommitted(userIds: readonly string[]): Promise<void> {
    return this.readReplica ? this.readReplica.marked(userIds) : Promise.resolve();
  }

  /** Registers the one observer of an event subject's commits (see CommitObserver). */
  onCommitted<P>(event: EventSubject<P>, observer: CommitObserver<P>): void {
    if (this.observers.has(event.name)) throw new Error(`${event.name} already has a commit observer`);
    this.observers.set(event.name, observer as CommitObserver<unknown>);
  }

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let effects = new CommitEffects();
    const result = await this.dataSource.transaction(async (manager) => {
      // A retried body (none today) must not carry the first attempt's payloads or wakes.
      effects = new CommitEffects();
      return work(this.tx(manager, effects));
    });
    await this.committed(effects);
    return result;
  }

  /**
   * Units of work in one transaction, one COMMIT for all (issue #48: a consumer's batch of
   * events), each as if it ran alone: a unit that throws is undone alone, and the others commit.
   * Each unit gets a Tx of its own (its own manager on the transaction's connection, so what a
   * handler keeps per manager is the unit's; its own events, wakes and observed payloads, kept
   * only if the unit holds). Resolves after the COMMIT with each unit's value or the error that
   * undid it, in order; rejects, with nothing of any unit kept, when the transaction itself fails.
   *
   * First optimistically, with no savepoints (a batch of events that all apply costs no round
   * trip more than one transaction each would, less their COMMITs); when a unit throws, that
   * transaction rolls back whole and the batch runs again, each unit in a savepoint of its own.
   */
  async batch<I, T>(items: readonly I[], work: (item: I, tx: Tx) => Promise<T>): Promise<Array<UnitAttempt<T>>> {
    if (items.length === 0) return [];
    try {
      return await this.runBatch(items, work, false);
    } catch (error) {
      if (!(error instanceof BatchFailedOptimistically)) throw error;
    }
    return this.runBatch(items, work, true);
  }

  private async runBatch<I, T>(items: readonly I[], work: (item: I, tx: Tx) => Promise<T>, withSavepoints: boolean): Promise<Array<UnitAttempt<T>>> {
    let effects = new CommitEffects();
    const attempts = await this.dataSource.transaction(async (manager) => {
      effects = new CommitEffects();
      const savepoints = withSavepoints ? new UnitSavepoints(manager) : undefined;
      const results: Array<UnitAttempt<T>> = [];
      for (const item of items) {
        const unit = new CommitEffects();
        const tx = this.tx(this.dataSource.createEntityManager(manager.queryRunner), unit);
        if (!savepoints) {
          try {
            results.push({ ok: true, value: await work(item, tx) });
          } catch (error) {
            throw new BatchFailedOptimistically(error);
          }
        } else {
          const attempt = await savepoints.attempt(() => work(item, tx));
          results.push(attempt);
          if (!attempt.ok) continue;
        }
        effects.adopt(unit);
      }
      await savepoints?.finish();
      return results;
    });
    await this.committed(effects);
    return attempts;
  }

  /** Several reads that must agree with each other (one snapshot), without writing. */
  readSnapshot<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', work);
  }

  /** Plain reads outside a transaction. */
  query<T = unknown>(sql: string, parameters: unknown[] = []): Promise<T> {
    return this.dataSource.query<T>(sql, parameters);
  }

  /** A Tx over `manager` whose events, wakes and observed payloads go to `effects`. */
  private tx(manager: EntityManager, effects: CommitEffects): Tx {
    // Payloads of observed subjects, kept only once the statement recording them has succeeded.
    const observe = (name: string, payloads: readonly unknown[]) => {
      if (this.observers.has(name) && payloads.length > 0) effects.observe(name, payloads);
    };
    return {
      manager,
      emit: async (event, payload) => {
        effects.emitted = true;
        const id = await this.outbox.enqueue(manager, event, payload);
        observe(event.name, [payload]);
        return id;
      },
      emitAll: async (event, payloads) => {
        if (payloads.length > 0) effects.emitted = true;
        const ids = await this.outbox.enqueueAll(manager, event, payloads);
        observe(event.name, payloads);
        return ids;
      },
      afterCommit: (wake) => {
        effects.wakes.push(wake);
      },
    };
  }

  /** After a COMMIT: the relay woken, the wakes run, the observers told (before the caller is answered). */
  private async committed(effects: CommitEffects): Promise<void> {
    if (effects.emitted) this.relay.nudge();
    for (const wake of effects.wakes) wake();
    if (effects.observed.size > 0) await Promise.all([...effects.observed].map(([name, payloads]) => this.observers.get(name)!(payloads)));
  }
}
