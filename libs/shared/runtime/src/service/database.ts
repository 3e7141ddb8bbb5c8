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
 * A service's database handle. Transactions that emit events wake the outbox relay after they
 * commit, so events go out at once instead of at the next poll.
 */
export class Database {
  private readonly outbox: OutboxWriter;

  constructor(
    readonly dataSource: DataSource,
    readonly schema: string,
    readonly relay: OutboxRelay,
  ) {
    this.outbox = new OutboxWriter(schema);
  }

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let emitted = false;
    const committed: Array<() => void> = [];
    const result = await this.dataSource.transaction(async (manager) =>
      work({
        manager,
        emit: (event, payload) => {
          emitted = true;
          return this.outbox.enqueue(manager, event, payload);
        },
        emitAll: (event, payloads) => {
          if (payloads.length > 0) emitted = true;
          return this.outbox.enqueueAll(manager, event, payloads);
        },
        afterCommit: (wake) => {
          committed.push(wake);
        },
      }),
    );
    if (emitted) this.relay.nudge();
    for (const wake of committed) wake();
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
