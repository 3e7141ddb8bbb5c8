import type { Attempt, CommandGuard } from './savepoint';

/**
 * Thrown out of a request's transaction when a command fails in the optimistic pass. Nothing
 * undoes that command's own writes but the rollback of the whole transaction, so the request
 * runs again, every command in a savepoint of its own (CommandSavepoints).
 */
export class OptimisticPassFailed extends Error {
  constructor(readonly commandError: unknown) {
    super('a command failed in the optimistic pass: the request runs again with savepoints');
  }
}

/**
 * The optimistic pass: the commands of a request run without savepoints, on the bet that none
 * fails (a client flushing its queue sends commands that succeed). That saves a round trip per
 * command: the SAVEPOINT it would cost (`RELEASE; SAVEPOINT` sent as one query), and the RELEASE
 * of the last one. When a command throws, the bet is lost: OptimisticPassFailed is thrown, its
 * transaction rolls back whole (none of its commands is reported or remembered) and the
 * executor runs the request again with savepoints. The commands' sequence values taken in the
 * lost pass (ids, the change version) are gaps, as after any rollback; what the pass kept in
 * memory (statuses, temp ids, the log's records, the touched projects) lives in its Batch, which
 * the rerun builds anew.
 */
export class OptimisticCommands implements CommandGuard {
  async attempt<T>(work: () => Promise<T>): Promise<Attempt<T>> {
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      throw new OptimisticPassFailed(error);
    }
  }

  finish(): Promise<void> {
    return Promise.resolve();
  }
}
