import type { EventSubject } from '@doable/contracts-common';
import { type OutboxRelay, OutboxWriter } from '@doable/shared-database';
import type { DataSource, EntityManager } from 'typeorm';

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

/**
 * A service's database handle. Transactions that emit events wake the outbox relay after they
 * commit, so events go out at once instead of at the next poll.
 */
export class Database {
  private readonly outbox: OutboxWriter;
  private readonly observers = new Map<string, CommitObserver<unknown>>();

  constructor(
    readonly dataSource: DataSource,
    readonly schema: string,
    readonly relay: OutboxRelay,
  ) {
    this.outbox = new OutboxWriter(schema);
  }

  /** Registers the one observer of an event subject's commits (see CommitObserver). */
  onCommitted<P>(event: EventSubject<P>, observer: CommitObserver<P>): void {
    if (this.observers.has(event.name)) throw new Error(`${event.name} already has a commit observer`);
    this.observers.set(event.name, observer as CommitObserver<unknown>);
  }

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let emitted = false;
    // Payloads of observed subjects, kept only once the statement recording them has succeeded.
    let observed: Map<string, unknown[]> | undefined;
    const observe = (name: string, payloads: readonly unknown[]) => {
      if (!this.observers.has(name) || payloads.length === 0) return;
      observed ??= new Map();
      const list = observed.get(name);
      if (list) list.push(...payloads);
      else observed.set(name, [...payloads]);
    };
    let committed: Array<() => void> = [];
    const result = await this.dataSource.transaction(async (manager) => {
      // A retried body (none today) must not carry the first attempt's payloads or wakes.
      observed = undefined;
      committed = [];
      return work({
        manager,
        emit: async (event, payload) => {
          emitted = true;
          const id = await this.outbox.enqueue(manager, event, payload);
          observe(event.name, [payload]);
          return id;
        },
        emitAll: async (event, payloads) => {
          if (payloads.length > 0) emitted = true;
          const ids = await this.outbox.enqueueAll(manager, event, payloads);
          observe(event.name, payloads);
          return ids;
        },
        afterCommit: (wake) => {
          committed.push(wake);
        },
      });
    });
    if (emitted) this.relay.nudge();
    for (const wake of committed) wake();
    if (observed) await Promise.all([...observed].map(([name, payloads]) => this.observers.get(name)!(payloads)));
    return result;
  }

  /** Several reads that must agree with each other (one snapshot), without writing. */
  readSnapshot<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', work);
  }

  /** Plain reads outside a transaction. */
  query<T = unknown>(sql: string, parameters: unknown[] = []): Promise<T> {
    return this.dataSource.query<T>(sql, parameters);
  }
}
