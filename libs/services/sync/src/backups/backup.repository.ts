import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface BackupRow {
  readonly id: string;
  readonly user_id: string;
  readonly version: string;
  readonly blob_key: string;
  readonly size: string;
  readonly created_at: Date;
}

/** sync.backups and sync.backup_schedule (migration 1732190002300). */
@Injectable()
export class BackupRepository {
  /** The user's backups, newest first. */
  list(manager: EntityManager, userId: string): Promise<BackupRow[]> {
    return manager.query<BackupRow[]>(`SELECT id::text, user_id::text, version, blob_key, size::text, created_at FROM sync.backups WHERE user_id = $1 ORDER BY created_at DESC, id DESC`, [userId]);
  }

  async findByVersion(manager: EntityManager, userId: string, version: string): Promise<BackupRow | undefined> {
    const rows = await manager.query<BackupRow[]>(`SELECT id::text, user_id::text, version, blob_key, size::text, created_at FROM sync.backups WHERE user_id = $1 AND version = $2`, [userId, version]);
    return rows[0];
  }

  /** Records a stored backup; a second one in the same minute replaces the first's row (same version). */
  async record(manager: EntityManager, userId: string, version: string, blobKey: string, size: number): Promise<string | undefined> {
    const replaced = await manager.query<Array<{ blob_key: string }>>(`SELECT blob_key FROM sync.backups WHERE user_id = $1 AND version = $2`, [userId, version]);
    await manager.query(
      `INSERT INTO sync.backups (user_id, version, blob_key, size) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, version) DO UPDATE SET blob_key = excluded.blob_key, size = excluded.size, created_at = now()`,
      [userId, version, blobKey, size],
    );
    const previous = replaced[0]?.blob_key;
    return previous !== undefined && previous !== blobKey ? previous : undefined;
  }

  /** Removes the rows of backups older than the retention; answers their blob keys, to delete. */
  async expire(manager: EntityManager, retentionDays: number, limit: number): Promise<string[]> {
    const [rows] = await manager.query<[Array<{ blob_key: string }>, number]>(
      `DELETE FROM sync.backups WHERE id IN (SELECT id FROM sync.backups WHERE created_at < now() - make_interval(days => $1) LIMIT $2) RETURNING blob_key`,
      [retentionDays, limit],
    );
    return rows.map((row) => row.blob_key);
  }

  /** Every account gets a schedule row: the first backup is due a day after it was first seen. */
  async scheduleNewUsers(manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO sync.backup_schedule (user_id, next_at)
       SELECT u.id, now() + interval '1 day' FROM sync.users u WHERE NOT EXISTS (SELECT 1 FROM sync.backup_schedule s WHERE s.user_id = u.id)
       ON CONFLICT (user_id) DO NOTHING`,
    );
  }

  /** An operator's "back this account up now": due at once, made even on a plan without automatic backups. */
  async requestNow(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(
      `INSERT INTO sync.backup_schedule (user_id, next_at, requested) VALUES ($1, now(), true)
       ON CONFLICT (user_id) DO UPDATE SET next_at = now(), requested = true`,
      [userId],
    );
  }

  /**
   * Takes up to `limit` due accounts for this replica: their next time moves a day on in the
   * same statement, under SKIP LOCKED, so two replicas never take the same account.
   */
  async claimDue(manager: EntityManager, limit: number): Promise<Array<{ user_id: string; requested: boolean }>> {
    // UPDATE ... RETURNING answers [rows, count] through TypeORM.
    const [rows] = await manager.query<[Array<{ user_id: string; requested: boolean }>, number]>(
      `WITH due AS (SELECT user_id, requested FROM sync.backup_schedule WHERE next_at <= now() ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE sync.backup_schedule s SET next_at = now() + interval '1 day', requested = false FROM due
        WHERE s.user_id = due.user_id
       RETURNING s.user_id::text AS user_id, due.requested`,
      [limit],
    );
    return rows.sort((a, b) => a.user_id.localeCompare(b.user_id));
  }
}
