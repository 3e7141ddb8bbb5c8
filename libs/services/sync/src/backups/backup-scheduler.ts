import { LOGGER, type Logger } from '@doable/shared-logging';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { Database, PeriodicTask } from '@doable/shared-runtime';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PlanLimitsRepository } from '@doable/sync-domain';
import { BackupMaker } from './backup-maker';
import { BackupRepository } from './backup.repository';

export interface BackupSettings {
  /** How many days a backup is kept (BACKUP_RETENTION_DAYS). */
  readonly retentionDays: number;
  /** How often the scheduler looks for due accounts (BACKUP_POLL_SECONDS). */
  readonly pollSeconds: number;
}
export const BACKUP_SETTINGS = Symbol('BACKUP_SETTINGS');

/** Accounts backed up per look: a burst of due accounts is spread over several looks. */
const CLAIM = 10;
const EXPIRE_BATCH = 500;

/**
 * Automatic daily backups. Each account is due a day after it was first seen and a day after
 * each backup; an account whose plan has no `automatic_backups` is skipped (its next time still
 * moves a day on), unless an operator asked for one. Replicas share the work through the
 * schedule's SKIP LOCKED claim. Backups older than the retention are deleted, row then bytes.
 */
@Injectable()
export class BackupScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: Database,
    private readonly backups: BackupRepository,
    private readonly maker: BackupMaker,
    private readonly plans: PlanLimitsRepository,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
    @Inject(BACKUP_SETTINGS) private readonly settings: BackupSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.runOnce(), { intervalMs: this.settings.pollSeconds * 1000, logger, failure: 'backup scheduling failed; retrying at the next look' });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): void {
    this.task.stop();
  }

  /** One look: schedule new accounts, back up the due ones, expire old backups. Answers how many were made. */
  async runOnce(): Promise<number> {
    const manager = this.database.dataSource.manager;
    await this.backups.scheduleNewUsers(manager);
    let made = 0;
    for (const { user_id: userId, requested } of await this.backups.claimDue(manager, CLAIM)) {
      if (!requested && !(await this.plans.find(manager, userId)).limits.current.automatic_backups) continue;
      try {
        const backup = await this.maker.make(userId);
        made++;
        this.logger.info({ userId, version: backup.version, size: backup.size }, 'backup made');
      } catch (err) {
        this.logger.warn({ err, userId }, 'backup failed; the account is due again tomorrow');
      }
    }
    for (const key of await this.backups.expire(manager, this.settings.retentionDays, EXPIRE_BATCH)) await this.store.delete(key);
    return made;
  }
}
