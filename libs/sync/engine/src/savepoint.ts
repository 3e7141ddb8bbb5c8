import type { Tx } from '@doable/shared-runtime';

export type Attempt<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** How the commands of a request are run: each undone alone on failure (savepoints), or optimistically (OptimisticCommands). */
export interface CommandGuard {
  /** Runs one command: its value, or the error that undid it. */
  attempt<T>(work: () => Promise<T>): Promise<Attempt<T>>;
  /** Call after the last command, before what the request writes at its end. */
  finish(): Promise<void>;
}

/**
 * One savepoint per command, in one transaction: a command that throws is undone alone and the
 * transaction goes on as it was before it (its error is returned, not thrown). The savepoint of
 * a command is released in the same round trip that sets the next one's (one simple-protocol
 * query of two statements), so a command costs one extra round trip, not two.
 * A savepoint that cannot be set, released or rolled back to means the transaction is lost:
 * that throws, and the caller's transaction fails as a whole.
 * The same works one level down (another name): the objects of one command, each undone alone.
 */
export class CommandSavepoints implements CommandGuard {
  private open = false;

  constructor(
    private readonly tx: Tx,
    private readonly name = 'sync_command',
  ) {}

  async attempt<T>(work: () => Promise<T>): Promise<Attempt<T>> {
    // No parameters: pg sends it as a simple query, which may hold several statements.
    await this.tx.manager.query(this.open ? `RELEASE SAVEPOINT ${this.name}; SAVEPOINT ${this.name}` : `SAVEPOINT ${this.name}`);
    this.open = true;
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      // The savepoint stays set after a rollback to it; the next attempt releases it.
      await this.tx.manager.query(`ROLLBACK TO SAVEPOINT ${this.name}`);
      return { ok: false, error };
    }
  }

  /** Releases the last savepoint: what follows runs in the transaction itself. */
  async finish(): Promise<void> {
    if (this.open) await this.tx.manager.query(`RELEASE SAVEPOINT ${this.name}`);
    this.open = false;
  }
}
