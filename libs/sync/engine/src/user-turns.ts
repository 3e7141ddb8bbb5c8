/**
 * One command transaction per user at a time in this process, the others waiting here rather
 * than in the database. Every command transaction locks its user's row first (lockUser), so a
 * user's concurrent requests run one after another anyway; without this gate each waiter held a
 * pooled connection while it waited for the row. One user sending a burst of heavy batches then
 * held the whole pool, and another user's request found no connection for 5 s and answered 503
 * (issue #44's heavy-input class, embedded mode). Waiting here costs no connection. Turns are
 * first come, first served; a user with nothing waiting leaves no entry behind.
 */
export class UserTurns {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(userId) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    this.tails.set(userId, tail);
    await before;
    try {
      return await work();
    } finally {
      done();
      if (this.tails.get(userId) === tail) this.tails.delete(userId);
    }
  }

  /** Users with a turn taken or waiting (for tests and metrics). */
  get waitingUsers(): number {
    return this.tails.size;
  }
}
