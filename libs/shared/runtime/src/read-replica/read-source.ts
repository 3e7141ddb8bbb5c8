import type { DataSource, EntityManager } from 'typeorm';

/** Which server answered a read. */
export type ReadServer = 'primary' | 'standby';

/**
 * Where a read runs (Database.read): the primary, or the read replica's standby. The same
 * queries work on both; a standby refuses writes, so a read given a ReadSource must not write.
 */
export interface ReadSource {
  readonly server: ReadServer;
  /** For plain reads outside a transaction. */
  readonly manager: EntityManager;
  /** Several reads that must agree with each other (one snapshot), without writing. */
  readSnapshot<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
}

/**
 * Thrown by a read that found the standby without something the primary must have (a user's
 * profile, made by a commit that moved no marks): the read runs again on the primary.
 */
export class StandbyBehind extends Error {
  constructor(what: string) {
    super(`the standby does not have ${what} yet`);
    this.name = 'StandbyBehind';
  }
}

/** A server's pool as a ReadSource. */
export function readSourceOf(server: ReadServer, dataSource: DataSource): ReadSource {
  return {
    server,
    manager: dataSource.manager,
    readSnapshot: (work) => dataSource.transaction('REPEATABLE READ', work),
  };
}
