import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type CommandStatus = 'ok' | Record<string, unknown>;

const TEMP_IDS_KEPT = 500;

/** The outcome of every executed command uuid, and the temp ids it created. */
@Injectable()
export class CommandLogRepository {
  async find(manager: EntityManager, userId: string, uuid: string): Promise<{ status: CommandStatus; tempIdMapping: Record<string, string> } | undefined> {
    const rows = await manager.query<Array<{ status: CommandStatus; temp_id_mapping: Record<string, string> }>>(
      `SELECT status, temp_id_mapping FROM sync.command_log WHERE user_id = $1 AND uuid = $2`,
      [userId, uuid],
    );
    return rows[0] ? { status: rows[0].status, tempIdMapping: rows[0].temp_id_mapping } : undefined;
  }

  /** Records an outcome once; a concurrent duplicate keeps the first. */
  async record(manager: EntityManager, userId: string, uuid: string, status: CommandStatus, tempIdMapping: Record<string, string>): Promise<void> {
    await manager.query(
      `INSERT INTO sync.command_log (user_id, uuid, status, temp_id_mapping) VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, uuid) DO NOTHING`,
      [userId, uuid, JSON.stringify(status), JSON.stringify(tempIdMapping)],
    );
  }

  async resolveTempId(manager: EntityManager, userId: string, tempId: string): Promise<string | undefined> {
    const rows = await manager.query<Array<{ object_id: string }>>(`SELECT object_id::text FROM sync.temp_ids WHERE user_id = $1 AND temp_id = $2`, [
      userId,
      tempId,
    ]);
    return rows[0]?.object_id;
  }

  /** Remembers a temp id for later requests, keeping only the newest ones per user. */
  async rememberTempId(manager: EntityManager, userId: string, tempId: string, objectId: string): Promise<void> {
    await manager.query(
      `INSERT INTO sync.temp_ids (user_id, temp_id, object_id) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, temp_id) DO UPDATE SET object_id = EXCLUDED.object_id, created_at = clock_timestamp()`,
      [userId, tempId, objectId],
    );
    await manager.query(
      `DELETE FROM sync.temp_ids WHERE user_id = $1 AND temp_id IN (
         SELECT temp_id FROM sync.temp_ids WHERE user_id = $1 ORDER BY created_at DESC OFFSET $2)`,
      [userId, TEMP_IDS_KEPT],
    );
  }
}
