import { LOGGER, type Logger } from '@doable/shared-logging';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Database } from '../service/database';
import { PeriodicTask } from './periodic-task';

/** How many days a command uuid is remembered (COMMAND_LOG_RETENTION_DAYS, 30 by default in every service that keeps one). */
export const COMMAND_LOG_RETENTION_DAYS = Symbol('COMMAND_LOG_RETENTION_DAYS');
/** The service's command log: `<schema>.command_log` with `user_id`, `uuid` and `executed_at`. */
export const COMMAND_LOG_TABLE = Symbol('COMMAND_LOG_TABLE');

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5_000;

/**
 * Forgets executed command uuids after the retention period: sync's command log, and the logs in
 * which notifications and auth-oauth run each sync command's remote work once. An entry matters
 * while a copy of its command may still arrive (a resent request, seconds later; a client
 * retrying a request whose answer it lost, days later); past sync's retention sync would run the
 * uuid again anyway. Deletes in short batches, so no long lock is held on a busy table; every
 * replica may prune (a row deleted by another is simply not counted).
 */
@Injectable()
export class CommandLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: Database,
    @Inject(COMMAND_LOG_TABLE) private readonly table: string,
    @Inject(COMMAND_LOG_RETENTION_DAYS) private readonly days: number,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.pruneLogged(), { intervalMs: PRUNE_EVERY_MS, logger, failure: `${table} pruning failed; retrying at the next interval` });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): void {
    this.task.stop();
  }

  /** Deletes every entry older than the retention, in batches; answers how many went. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      // TypeORM answers DELETE with [rows, affected]. The table name is the service's constant, never input.
      const [, affected] = await this.database.dataSource.query<[unknown[], number]>(
        `DELETE FROM ${this.table} WHERE (user_id, uuid) IN (
           SELECT user_id, uuid FROM ${this.table} WHERE executed_at < now() - make_interval(days => $1) LIMIT $2)`,
        [this.days, BATCH],
      );
      total += affected;
      if (affected < BATCH) return total;
    }
  }

  private async pruneLogged(): Promise<void> {
    const pruned = await this.prune();
    if (pruned > 0) this.logger.info({ pruned, retentionDays: this.days, table: this.table }, 'command log pruned');
  }
}
