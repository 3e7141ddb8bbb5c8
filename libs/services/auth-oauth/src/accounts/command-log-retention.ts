import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database, PeriodicTask } from '@doable/shared-runtime';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandLogRepository } from './command-log.repository';

/** How many days a credential change's command uuid is remembered (COMMAND_LOG_RETENTION_DAYS, as sync's command log). */
export const COMMAND_LOG_RETENTION_DAYS = Symbol('COMMAND_LOG_RETENTION_DAYS');

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5_000;

/**
 * Forgets credential changes' command uuids (and the email each answered) after the retention
 * sync keeps its own log for (30 days by default): an entry matters while a copy of its command
 * may still arrive (a resent request, seconds later; a client retrying a request whose answer it
 * lost, days later), and past sync's retention sync would run the uuid again anyway. Deletes in
 * short batches, so no long lock is held; every replica may prune (a row deleted by another is
 * simply not counted).
 */
@Injectable()
export class CommandLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: Database,
    private readonly commandLog: CommandLogRepository,
    @Inject(COMMAND_LOG_RETENTION_DAYS) private readonly days: number,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.pruneLogged(), { intervalMs: PRUNE_EVERY_MS, logger, failure: 'auth command log pruning failed; retrying at the next interval' });
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
      const deleted = await this.commandLog.deleteOlderThan(this.database.dataSource.manager, this.days, BATCH);
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }

  private async pruneLogged(): Promise<void> {
    const pruned = await this.prune();
    if (pruned > 0) this.logger.info({ pruned, retentionDays: this.days }, 'auth command log pruned');
  }
}
