import type { EntityManager } from 'typeorm';
import type { CommandStatus } from './command-status';

export interface LoggedOutcome {
  readonly status: CommandStatus;
  readonly tempIdMapping: Record<string, string>;
}

const TEMP_IDS_KEPT = 500;

/**
 * The command log (sync.command_log, sync.temp_ids) as one request's transaction uses it: the
 * outcomes of the request's uuids read in one query, and what the request adds written in one
 * go at its end, in the same transaction.
 */
export class CommandBatchLog {
  private readonly outcomes: Map<string, LoggedOutcome>;
  private readonly recorded: Array<{ readonly uuid: string } & LoggedOutcome> = [];
  /** Temp ids created in this request, in creation order (a temp id reused moves to the end). */
  private readonly tempIds = new Map<string, string>();

  private constructor(
    private readonly manager: EntityManager,
    private readonly userId: string,
    earlier: Map<string, LoggedOutcome>,
  ) {
    this.outcomes = earlier;
  }

  /** Reads the stored outcomes of the given uuids (the caller holds the user's lock). */
  static async load(manager: EntityManager, userId: string, uuids: readonly string[]): Promise<CommandBatchLog> {
    const rows = await manager.query<Array<{ uuid: string; status: CommandStatus; temp_id_mapping: Record<string, string> }>>(
      `SELECT uuid, status, temp_id_mapping FROM sync.command_log WHERE user_id = $1 AND uuid = ANY($2::text[])`,
      [userId, [...new Set(uuids)]],
    );
    return new CommandBatchLog(manager, userId, new Map(rows.map((row) => [row.uuid, { status: row.status, tempIdMapping: row.temp_id_mapping }])));
  }

  /** Which of the uuids were executed already (read without the lock: a hint, the transaction decides). */
  static async executed(manager: EntityManager, userId: string, uuids: readonly string[]): Promise<Set<string>> {
    if (uuids.length === 0) return new Set();
    const rows = await manager.query<Array<{ uuid: string }>>(`SELECT uuid FROM sync.command_log WHERE user_id = $1 AND uuid = ANY($2::text[])`, [userId, [...new Set(uuids)]]);
    return new Set(rows.map((row) => row.uuid));
  }

  /** The outcome of a uuid executed earlier, in a past request or earlier in this one. */
  outcomeOf(uuid: string): LoggedOutcome | undefined {
    return this.outcomes.get(uuid);
  }

  record(uuid: string, status: CommandStatus, tempIdMapping: Record<string, string>): void {
    if (this.outcomes.has(uuid)) return;
    this.outcomes.set(uuid, { status, tempIdMapping });
    this.recorded.push({ uuid, status, tempIdMapping });
  }

  rememberTempId(tempId: string, objectId: string): void {
    this.tempIds.delete(tempId);
    this.tempIds.set(tempId, objectId);
  }

  /** A temp id of an earlier request (this request's are the caller's to know). */
  async resolveStoredTempId(tempId: string): Promise<string | undefined> {
    const rows = await this.manager.query<Array<{ object_id: string }>>(`SELECT object_id::text FROM sync.temp_ids WHERE user_id = $1 AND temp_id = $2`, [
      this.userId,
      tempId,
    ]);
    return rows[0]?.object_id;
  }

  /** Writes what the request recorded: one statement for the outcomes, two for the temp ids. */
  async flush(): Promise<void> {
    if (this.recorded.length > 0) {
      await this.manager.query(
        `INSERT INTO sync.command_log (user_id, uuid, status, temp_id_mapping)
         SELECT $1, uuid, status, mapping FROM unnest($2::text[], $3::jsonb[], $4::jsonb[]) AS outcome(uuid, status, mapping)
         ON CONFLICT (user_id, uuid) DO NOTHING`,
        [
          this.userId,
          this.recorded.map((outcome) => outcome.uuid),
          this.recorded.map((outcome) => JSON.stringify(outcome.status)),
          this.recorded.map((outcome) => JSON.stringify(outcome.tempIdMapping)),
        ],
      );
    }
    if (this.tempIds.size > 0) {
      // clock_timestamp() is read per row, so the rows keep the order they were created in.
      await this.manager.query(
        `INSERT INTO sync.temp_ids (user_id, temp_id, object_id)
         SELECT $1, temp_id, object_id FROM unnest($2::text[], $3::bigint[]) WITH ORDINALITY AS created(temp_id, object_id, n) ORDER BY n
         ON CONFLICT (user_id, temp_id) DO UPDATE SET object_id = EXCLUDED.object_id, created_at = clock_timestamp()`,
        [this.userId, [...this.tempIds.keys()], [...this.tempIds.values()]],
      );
      await this.manager.query(
        `DELETE FROM sync.temp_ids WHERE user_id = $1 AND temp_id IN (
           SELECT temp_id FROM sync.temp_ids WHERE user_id = $1 ORDER BY created_at DESC OFFSET $2)`,
        [this.userId, TEMP_IDS_KEPT],
      );
    }
  }
}
