import type { EntityManager } from 'typeorm';

/** A unit of a batch: its value, or the error that undid it. */
export type UnitAttempt<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Thrown out of a batch's optimistic transaction when a unit failed: only the rollback of the
 * whole transaction undoes that unit's writes, so the batch runs again with savepoints.
 */
export class BatchFailedOptimistically extends Error {
  constructor(readonly unitError: unknown) {
    super('a unit of a batch failed in the optimistic pass: the batch runs again with a savepoint per unit');
  }
}

/**
 * One savepoint per unit of a batch, in one transaction: a unit that throws is rolled back to its
 * savepoint alone and the transaction goes on as before it (its error is returned, not thrown).
 * A unit's savepoint is released in the round trip that sets the next one's (one simple-protocol
 * query of two statements, as sync's command savepoints do). A savepoint that cannot be set,
 * released or rolled back to means the transaction is lost: that throws, and the whole batch fails.
 */
export class UnitSavepoints {
  private open = false;

  constructor(
    private readonly manager: EntityManager,
    private readonly name = 'batch_unit',
  ) {}

  async attempt<T>(work: () => Promise<T>): Promise<UnitAttempt<T>> {
    // No parameters: pg sends it as a simple query, which may hold several statements.
    await this.manager.query(this.open ? `RELEASE SAVEPOINT ${this.name}; SAVEPOINT ${this.name}` : `SAVEPOINT ${this.name}`);
    this.open = true;
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      // The savepoint stays set after a rollback to it; the next attempt releases it.
      await this.manager.query(`ROLLBACK TO SAVEPOINT ${this.name}`);
      return { ok: false, error };
    }
  }

  /** Releases the last savepoint. */
  async finish(): Promise<void> {
    if (this.open) await this.manager.query(`RELEASE SAVEPOINT ${this.name}`);
    this.open = false;
  }
}
