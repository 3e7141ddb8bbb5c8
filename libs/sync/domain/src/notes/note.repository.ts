import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { type JsonArrayText, jsonArrayText } from '../persistence/json-array-text';
import type { ObjectJsonSql } from '../persistence/row-json';
import { type FileAttachment, NOTE_COLUMNS, NOTE_WIRE_COLUMNS, type Note, type WireNote } from './note.model';
import { asLeftTombstones, changedSinceCondition, changedSinceParams, type MembershipChanges, inVisibleProjects, NO_MEMBERSHIP_CHANGES, VISIBLE_PROJECTS } from '../membership/membership';

/** A full sync's comments: every active one in a project the user can see. */
const ACTIVE_NOTES = `FROM sync.notes WHERE ${inVisibleProjects('project_id')} AND NOT is_deleted ORDER BY id`;

/** The live comments of each task the user (`$1`) can see, as a table (item_id, note_count): what countByTask counts for a full sync. */
export const LIVE_COMMENT_COUNTS = `SELECT item_id, count(*)::int AS note_count FROM sync.notes WHERE ${inVisibleProjects('project_id')} AND item_id IS NOT NULL AND NOT is_deleted GROUP BY item_id`;

export interface NewNote {
  readonly projectId: string;
  readonly itemId: string | null;
  readonly postedUid: string;
  readonly content: string;
  readonly fileAttachment: FileAttachment | null;
  readonly uidsToNotify: readonly string[] | null;
}

export type NoteChanges = Partial<{
  content: string;
  file_attachment: FileAttachment | null;
  uids_to_notify: readonly string[] | null;
  reactions: Record<string, string[]>;
  is_deleted: boolean;
}>;

const JSON_COLUMNS: ReadonlySet<string> = new Set(['file_attachment', 'reactions']);

/**
 * Comments in the projects a user can see. A task comment's project_id follows its task (see
 * the notes migration). Every method runs on the caller's transaction.
 */
@Injectable()
export class NoteRepository {
  async insert(manager: EntityManager, note: NewNote, version: string): Promise<Note> {
    const [row] = await manager.query<Note[]>(
      `INSERT INTO sync.notes (project_id, item_id, posted_uid, content, file_attachment, uids_to_notify, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${NOTE_COLUMNS}`,
      [note.projectId, note.itemId, note.postedUid, note.content, note.fileAttachment === null ? null : JSON.stringify(note.fileAttachment), note.uidsToNotify, version],
    );
    return row;
  }

  /** A visible, not deleted comment, locked for the rest of the transaction. */
  async findVisibleForUpdate(manager: EntityManager, userId: string, noteId: string): Promise<Note | undefined> {
    const rows = await manager.query<Note[]>(
      `SELECT ${NOTE_COLUMNS} FROM sync.notes WHERE id = $2 AND NOT is_deleted AND project_id IN (${VISIBLE_PROJECTS}) FOR UPDATE`,
      [userId, noteId],
    );
    return rows[0];
  }

  async update(manager: EntityManager, noteId: string, changes: NoteChanges, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.notes', [noteId], changes, version, { jsonColumns: JSON_COLUMNS });
  }

  /** Comments per task: of the given tasks, or of every task the user can see. */
  async countByTask(manager: EntityManager, userId: string, taskIds?: readonly string[]): Promise<Map<string, number>> {
    if (taskIds?.length === 0) return new Map();
    // Given ids were read through the user's visibility already; without them, it bounds the count.
    const which = taskIds === undefined ? `${inVisibleProjects('project_id')} AND item_id IS NOT NULL` : 'item_id = ANY($1::bigint[])';
    const rows = await manager.query<Array<{ id: string; count: number }>>(
      `SELECT item_id::text AS id, count(*)::int AS count FROM sync.notes WHERE ${which} AND NOT is_deleted GROUP BY item_id`,
      taskIds === undefined ? [userId] : [taskIds],
    );
    return new Map(rows.map((row) => [row.id, row.count]));
  }

  /** Comments for a full sync, task and project comments alike. */
  async listActive(manager: EntityManager, userId: string): Promise<Note[]> {
    return manager.query<Note[]>(`SELECT ${NOTE_COLUMNS} ${ACTIVE_NOTES}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireNote[]> {
    return manager.query<WireNote[]>(`SELECT ${NOTE_WIRE_COLUMNS} ${ACTIVE_NOTES}`, [userId]);
  }

  /**
   * listActiveWire as a full sync writes it (issue #48, bench S3): task comments in `notes`,
   * project comments in `project_notes`, each written by PostgreSQL by `note` (a dialect's writer
   * in SQL), joined in id order (jsonArrayText says why here and not by string_agg). Undefined
   * when one could not be written so (the caller reads the rows).
   */
  async listActiveJson(manager: EntityManager, userId: string, note: ObjectJsonSql): Promise<{ notes: JsonArrayText; project_notes: JsonArrayText } | undefined> {
    const object = note({ alias: 'note', computed: {} });
    const rows = await manager.query<Array<{ on_project: boolean; note: string | null }>>(
      `SELECT note.item_id IS NULL AS on_project, ${object} AS note
         FROM sync.notes AS note
        WHERE ${inVisibleProjects('note.project_id')} AND NOT note.is_deleted
        ORDER BY note.id`,
      [userId],
    );
    const notes = jsonArrayText(rows.filter((row) => !row.on_project).map((row) => row.note));
    const projectNotes = jsonArrayText(rows.filter((row) => row.on_project).map((row) => row.note));
    return notes === undefined || projectNotes === undefined ? undefined : { notes, project_notes: projectNotes };
  }

  /** Everything stamped after a version, tombstones included; all comments of projects joined since, tombstones for those of projects left. */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges = NO_MEMBERSHIP_CHANGES): Promise<Note[]> {
    const rows = await manager.query<Note[]>(
      `SELECT ${NOTE_COLUMNS} FROM sync.notes WHERE ${changedSinceCondition(memberships, 'NOT is_deleted')} ORDER BY id`,
      changedSinceParams(userId, version, memberships),
    );
    return asLeftTombstones(rows, memberships.left);
  }

}
