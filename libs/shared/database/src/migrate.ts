import { type DataSource, MigrationExecutor } from 'typeorm';

/**
 * How long one migration statement may wait for a table lock before it gives up and the
 * migration is tried again. A rolling update migrates while the previous release serves: an
 * `ALTER TABLE` waiting for its exclusive lock behind a running query makes every later query of
 * that table queue behind it, so an unbounded wait stalls the live service (its requests time
 * out as 503s). Bounded, the queue lasts at most this long; the migration's own transaction
 * rolls back and runs again a moment later. GitLab's `with_lock_retries` and strong_migrations
 * do the same.
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 2_000;
/** Tries of one migration run before the lock wait is reported as a failure (about a minute in all). */
const LOCK_TRIES = 20;
/** PostgreSQL's `lock_not_available` (55P03): `lock_timeout` expired. */
const LOCK_NOT_AVAILABLE = '55P03';

export interface MigrateOptions {
  /** Told of each lock wait that ran out, before the migration is tried again. */
  readonly onLockRetry?: (attempt: number, error: Error) => void;
  readonly lockTimeoutMs?: number;
}

const isLockTimeout = (err: unknown) => (err as { code?: unknown; driverError?: { code?: unknown } }).code === LOCK_NOT_AVAILABLE || (err as { driverError?: { code?: unknown } }).driverError?.code === LOCK_NOT_AVAILABLE;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies pending migrations, each in its own transaction, on one connection whose lock waits
 * are bounded (see MIGRATION_LOCK_TIMEOUT_MS). The schema is created first because the
 * migrations table itself lives in the service's schema.
 */
export async function migrateUp(dataSource: DataSource, options: MigrateOptions = {}): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const applied: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const queryRunner = dataSource.createQueryRunner();
    try {
      await queryRunner.query(`SET lock_timeout = ${Math.max(1, Math.round(options.lockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS))}`);
      const executor = new MigrationExecutor(dataSource, queryRunner);
      executor.transaction = 'each';
      // Each migration commits on its own: what ran before a lock wait ran out stays applied.
      applied.push(...(await executor.executePendingMigrations()).map((migration) => migration.name));
      return applied;
    } catch (err) {
      if (!isLockTimeout(err) || attempt >= LOCK_TRIES) throw err;
      options.onLockRetry?.(attempt, err as Error);
      // A little longer each time, so a long query ahead of the migration gets to finish.
      await sleep(Math.min(250 * attempt, 3_000));
    } finally {
      await queryRunner.query('RESET lock_timeout').catch(() => undefined);
      await queryRunner.release();
    }
  }
}

/** Reverts the most recent migration (run again to step further back). */
export async function migrateDown(dataSource: DataSource): Promise<void> {
  await dataSource.undoLastMigration({ transaction: 'each' });
}
