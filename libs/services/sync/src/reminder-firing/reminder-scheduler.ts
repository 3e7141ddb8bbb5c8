import { SyncEvents } from '@doable/contracts-sync';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database, PeriodicTask } from '@doable/shared-runtime';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { writeReminder } from '@doable/sync-dialects';
import { ReminderFiringRepository } from './reminder-firing.repository';

export interface ReminderSettings {
  /** How often due reminders are looked for (REMINDERS_POLL_SECONDS): a reminder fires at most this late. */
  readonly pollSeconds: number;
}
export const REMINDER_SETTINGS = Symbol('REMINDER_SETTINGS');

/** Reminders fired per transaction; a look goes on until none is due. */
const CLAIM = 100;
/**
 * A reminder found due longer ago than this (set in the past, or missed while no sync replica
 * ran) is marked fired without being announced: a reminder hours late is noise, not a reminder.
 */
const LATE_LIMIT_MS = 60 * 60 * 1000;

/**
 * Fires time reminders: absolute ones at their due, relative ones minute_offset before their
 * open task's due. Each claim locks the due reminders (SKIP LOCKED: replicas share the work),
 * marks each fired for its instant and records SyncEvents.reminderFired in the same transaction,
 * so a reminder fires exactly once per due instant whatever crashes or runs twice; who is told
 * (webhooks' `reminder:fired`) is the consumers' business.
 */
@Injectable()
export class ReminderScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: Database,
    private readonly reminders: ReminderFiringRepository,
    @Inject(REMINDER_SETTINGS) settings: ReminderSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.runOnce(), { intervalMs: settings.pollSeconds * 1000, logger, failure: 'reminder firing failed; retrying at the next look' });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): void {
    this.task.stop();
  }

  /** One look: fires every reminder due now, a claim at a time. Answers how many were announced. */
  async runOnce(): Promise<number> {
    let announced = 0;
    for (;;) {
      const { claimed, fired } = await this.database.transaction(async (tx) => {
        const due = await this.reminders.claimDue(tx.manager, CLAIM);
        const now = new Date();
        const timely = due.filter(({ fireAt }) => now.getTime() - fireAt.getTime() <= LATE_LIMIT_MS);
        await tx.emitAll(
          SyncEvents.reminderFired,
          timely.map(({ reminder, fireAt, mail }) => ({
            reminderId: reminder.id,
            itemId: reminder.item_id,
            projectId: reminder.project_id,
            userId: reminder.notify_uid,
            dueAt: fireAt.toISOString(),
            firedAt: now.toISOString(),
            reminder: writeReminder(reminder),
            // A reminder a legacy client gave the email service is mailed (the notifications service).
            ...(mail ? { mail } : {}),
          })),
        );
        return { claimed: due.length, fired: timely.length };
      });
      announced += fired;
      if (claimed < CLAIM) return announced;
    }
  }
}
