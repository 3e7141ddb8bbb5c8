import { DIGEST_MAX_TASKS, SyncEvents } from '@doable/contracts-sync';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database, PeriodicTask } from '@doable/shared-runtime';
import { TaskFilterService } from '@doable/sync-read';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DailyDigestRepository } from './daily-digest.repository';

export interface DigestSettings {
  /** How often users due a digest are looked for (DIGEST_POLL_SECONDS): a digest comes at most this late. */
  readonly pollSeconds: number;
}
export const DIGEST_SETTINGS = Symbol('DIGEST_SETTINGS');

/** The local hour from which a user's digest is due (Todoist's is in the morning too). */
export const DIGEST_HOUR = 7;
/** The tasks a digest lists: the Today view's own query. */
const TODAY_VIEW = 'today | overdue';
/** Users read per page of a look. */
const PAGE = 100;

/**
 * Makes the daily digests: sync knows the users' timezones, settings and tasks, so it decides
 * who is due and what the digest lists, and the notifications service only mails it. Each user
 * is one transaction: lock their row (SKIP LOCKED: replicas share the work), mark the digest
 * sent for their local day and record SyncEvents.dailyDigestDue with it, so a user gets one per
 * local day whatever crashes or runs twice. A day with nothing due or overdue is marked and
 * announced not at all: an empty digest is a mail nobody needs.
 */
@Injectable()
export class DailyDigestScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: Database,
    private readonly digests: DailyDigestRepository,
    private readonly filters: TaskFilterService,
    @Inject(DIGEST_SETTINGS) settings: DigestSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.runOnce(), { intervalMs: settings.pollSeconds * 1000, logger, failure: 'daily digest look failed; retrying at the next look' });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): void {
    this.task.stop();
  }

  /** One look at `now`: every due user, a page at a time. Answers how many digests were announced. */
  async runOnce(now = new Date()): Promise<number> {
    let announced = 0;
    let afterId = '0';
    for (;;) {
      const page = await this.digests.dueAfter(this.database.dataSource.manager, now, DIGEST_HOUR, afterId, PAGE);
      for (const due of page) {
        try {
          if (await this.digest(due, now)) announced += 1;
        } catch (err) {
          // One user's failure (their row, their filter) must not keep everyone after them waiting: the next look retries them.
          this.logger.warn({ err, userId: due.userId }, 'daily digest failed for a user; retrying at the next look');
        }
      }
      if (page.length < PAGE) return announced;
      afterId = page[page.length - 1].userId;
    }
  }

  private digest(due: { userId: string; localDate: string }, now: Date): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      if (!(await this.digests.claim(tx.manager, due))) return false;
      await this.digests.markSent(tx.manager, due);
      // English phrases: the two keywords are the query, whatever the user's language.
      const filter = await this.filters.activeWhere(tx.manager, due.userId, TODAY_VIEW, { now, lang: 'en' });
      const { tasks, total } = filter ? await this.digests.tasks(tx.manager, filter, DIGEST_MAX_TASKS) : { tasks: [], total: 0 };
      if (total === 0) return false;
      await tx.emit(SyncEvents.dailyDigestDue, { userId: due.userId, localDate: due.localDate, total, tasks });
      return true;
    });
  }
}
