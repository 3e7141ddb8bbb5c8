import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * auth.command_log: the Sync API `user_update` credential changes this service has run, by user
 * and command uuid, with the email each answered (what a later copy of the command answers too).
 */
@Injectable()
export class CommandLogRepository {
  /**
   * Records that the user's command `uuid` runs now and answers `email`, in the caller's
   * transaction (so the record commits with the change or not at all); false when it ran before
   * and must not run again. The caller holds the account's row lock, so a second delivery of the
   * uuid waits for the first to commit and then finds it here.
   */
  async claim(manager: EntityManager, userId: string, uuid: string, email: string): Promise<boolean> {
    const rows = await manager.query<Array<{ uuid: string }>>(
      `INSERT INTO auth.command_log (user_id, uuid, email) VALUES ($1, $2, $3) ON CONFLICT (user_id, uuid) DO NOTHING RETURNING uuid`,
      [userId, uuid, email],
    );
    return rows.length > 0;
  }

  /** What the user's command `uuid` answered when it ran, or undefined when it has not run (or was forgotten). */
  async answerOf(manager: EntityManager, userId: string, uuid: string): Promise<{ email: string } | undefined> {
    const [row] = await manager.query<Array<{ email: string }>>(`SELECT email FROM auth.command_log WHERE user_id = $1 AND uuid = $2`, [userId, uuid]);
    return row ? { email: row.email } : undefined;
  }
}
