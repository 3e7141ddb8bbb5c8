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

  /**
   * Reads the stored outcomes of the given uuids (the caller holds the user's lock), and takes
   * the request's first change version in the same round trip (see RequestChange): after the
   * lock, as a version must be, so the user's versions follow commit order. A request that
   * turns out to write nothing (all replays) leaves the version unused: a gap in the sequence,
   * as any rolled-back transaction leaves.
   */
  static async load(manager: EntityManager, userId: string, uuids: readonly string[]): Promise<{ log: CommandBatchLog; version: string }> {
    const rows = await manager.query<Array<{ version: string; uuid: string | null; status: CommandStatus; temp_id_mapping: Record<string, string> }>>(
      `SELECT v.version, l.uuid, l.status, l.temp_id_mapping
         FROM (SELECT nextval('sync.change_version')::text AS version) v
         LEFT JOIN sync.command_log l ON l.user_id = $1 AND l.uuid = ANY($2::text[])`,
      [userId, [...new Set(uuids)]],
    );
    const outcomes = new Map<string, LoggedOutcome>();
    for (const row of rows) if (row.uuid !== null) outcomes.set(row.uuid, { status: row.status, tempIdMapping: row.temp_id_mapping });
    return { log: new CommandBatchLog(manager, userId, outcomes), version: rows[0].version };
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

  /**
   * Writes what the request recorded in ONE statement: the outcomes, the temp ids, and the trim
   * of the temp ids to the newest TEMP_IDS_KEPT (three round trips before). The statements of a
   * WITH share one snapshot, so the trim cannot see the rows inserted beside it: it keeps, of the
   * rows there were, the newest TEMP_IDS_KEPT less the new ones, and never deletes a temp id this
   * request writes again (its row is updated beside it). The same rows remain as with the trim
   * after the insert: the new ones are the newest (created_at is read per row, the user's lock
   * orders the user's requests).
   */
  async flush(): Promise<void> {
    if (this.recorded.length === 0 && this.tempIds.size === 0) return;
    const outcomes = [
      this.userId,
      this.recorded.map((outcome) => outcome.uuid),
      this.recorded.map((outcome) => JSON.stringify(outcome.status)),
      this.recorded.map((outcome) => JSON.stringify(outcome.tempIdMapping)),
    ];
    const logOutcomes = `INSERT INTO sync.command_log (user_id, uuid, status, temp_id_mapping)
         SELECT $1, uuid, status, mapping FROM unnest($2::text[], $3::jsonb[], $4::jsonb[]) AS outcome(uuid, status, mapping)
         ON CONFLICT (user_id, uuid) DO NOTHING`;
    if (this.tempIds.size === 0) {
      await this.manager.query(logOutcomes, outcomes);
      return;
    }
    // More than are kept would be trimmed at once: only the newest are written.
    const created = [...this.tempIds].slice(-TEMP_IDS_KEPT);
    await this.manager.query(
      `WITH logged AS (${logOutcomes}),
       remembered AS (
         INSERT INTO sync.temp_ids (user_id, temp_id, object_id)
         SELECT $1, temp_id, object_id FROM unnest($5::text[], $6::bigint[]) WITH ORDINALITY AS created(temp_id, object_id, n) ORDER BY n
         ON CONFLICT (user_id, temp_id) DO UPDATE SET object_id = EXCLUDED.object_id, created_at = clock_timestamp())
       DELETE FROM sync.temp_ids WHERE user_id = $1 AND temp_id IN (
         SELECT temp_id FROM sync.temp_ids WHERE user_id = $1 AND temp_id <> ALL($5::text[]) ORDER BY created_at DESC OFFSET $7)`,
      [...outcomes, created.map(([tempId]) => tempId), created.map(([, objectId]) => objectId), TEMP_IDS_KEPT - created.length],
    );
  }
}
