import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

export const COMMAND_LOG_RETENTION_DAYS = Symbol('COMMAND_LOG_RETENTION_DAYS');

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5_000;

/**
 * Forgets executed command uuids after the retention period (30 days by default). A client
 * retries a lost request within seconds or, offline, within days; a uuid older than the
 * retention would run again. Deletes in short batches, so no long lock is held on a busy table.
 */
@Injectable()
export class CommandLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly database: Database,
    @Inject(COMMAND_LOG_RETENTION_DAYS) private readonly days: number,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.pruneLogged(), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Deletes every entry older than the retention; answers how many went. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const [, affected] = await this.database.dataSource.query<[unknown[], number]>(
        `DELETE FROM sync.command_log WHERE (user_id, uuid) IN (
           SELECT user_id, uuid FROM sync.command_log WHERE executed_at < now() - make_interval(days => $1) LIMIT $2)`,
        [this.days, BATCH],
      );
      total += affected;
      if (affected < BATCH) return total;
    }
  }

  private async pruneLogged(): Promise<void> {
    try {
      const pruned = await this.prune();
      if (pruned > 0) this.logger.info({ pruned, retentionDays: this.days }, 'command log pruned');
    } catch (err) {
      this.logger.warn({ err }, 'command log pruning failed; retrying at the next interval');
    }
  }
}
