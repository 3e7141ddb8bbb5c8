import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { LABEL_COLUMNS, LABEL_WIRE_COLUMNS, type Label, type WireLabel } from './label.model';
import { inVisibleProjects } from '../membership/membership';

/** A full sync's labels: the user's personal ones. */
const ACTIVE_LABELS = 'FROM sync.labels WHERE user_id = $1 AND NOT is_deleted ORDER BY item_order, id';

export type LabelChanges = Partial<{ name: string; color: string; item_order: number; is_favorite: boolean; is_deleted: boolean }>;

/**
 * A user's personal labels, and the label names on the tasks they can see. Names match
 * without regard to case, as the unique index on labels does. Every method runs on the
 * caller's transaction.
 */
@Injectable()
export class LabelRepository {
  async insert(manager: EntityManager, label: { userId: string; name: string; color: string; itemOrder: number | null; isFavorite: boolean }, version: string): Promise<Label> {
    const [row] = await manager.query<Label[]>(
      `INSERT INTO sync.labels (user_id, name, color, item_order, is_favorite, version)
       VALUES ($1, $2, $3, COALESCE($4, (SELECT COALESCE(max(item_order), 0) + 1 FROM sync.labels WHERE user_id = $1 AND NOT is_deleted)), $5, $6)
       RETURNING ${LABEL_COLUMNS}`,
      [label.userId, label.name, label.color, label.itemOrder, label.isFavorite, version],
    );
    return row;
  }

  /** How many personal labels the user has (not deleted): what max_labels counts. */
  async countActive(manager: EntityManager, userId: string): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM sync.labels WHERE user_id = $1 AND NOT is_deleted`, [userId]);
    return row.count;
  }

  /** The user's own label (not deleted), locked for the rest of the transaction. */
  async findOwnedForUpdate(manager: EntityManager, userId: string, labelId: string): Promise<Label | undefined> {
    const rows = await manager.query<Label[]>(`SELECT ${LABEL_COLUMNS} FROM sync.labels WHERE id = $2 AND user_id = $1 AND NOT is_deleted FOR UPDATE`, [userId, labelId]);
    return rows[0];
  }

  /**
   * The names of the user's own labels (not deleted) among these ids, in one query: how a task
   * command given label ids (Sync v8 wrote a task's labels as ids) stores the names it keeps.
   */
  async namesOfIds(manager: EntityManager, userId: string, labelIds: readonly string[]): Promise<Map<string, string>> {
    if (labelIds.length === 0) return new Map();
    const rows = await manager.query<Array<{ id: string; name: string }>>(
      `SELECT id::text, name FROM sync.labels WHERE user_id = $1 AND id = ANY($2::bigint[]) AND NOT is_deleted`,
      [userId, labelIds],
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** The user's label of a name (any case), locked. */
  async findByNameForUpdate(manager: EntityManager, userId: string, name: string): Promise<Label | undefined> {
    const rows = await manager.query<Label[]>(
      `SELECT ${LABEL_COLUMNS} FROM sync.labels WHERE user_id = $1 AND lower(name) = lower($2::text) AND NOT is_deleted FOR UPDATE`,
      [userId, name],
    );
    return rows[0];
  }

  async update(manager: EntityManager, labelId: string, changes: LabelChanges, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.labels', [labelId], changes, version);
  }

  async listActive(manager: EntityManager, userId: string): Promise<Label[]> {
    return manager.query<Label[]>(`SELECT ${LABEL_COLUMNS} ${ACTIVE_LABELS}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireLabel[]> {
    return manager.query<WireLabel[]>(`SELECT ${LABEL_WIRE_COLUMNS} ${ACTIVE_LABELS}`, [userId]);
  }

  /** Everything stamped after a version, deletions included. */
  async listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Label[]> {
    return manager.query<Label[]>(`SELECT ${LABEL_COLUMNS} FROM sync.labels WHERE user_id = $1 AND version > $2 ORDER BY id`, [userId, version]);
  }

  /**
   * Renames a label on every (not deleted) task the user can see, keeping its position; a task
   * that already carried the new name keeps it once. Returns the projects of the changed tasks.
   */
  async renameOnTasks(manager: EntityManager, userId: string, oldName: string, newName: string, version: string): Promise<string[]> {
    const rows = await manager.query<Array<{ project_id: string }>>(
      `WITH changed AS (
       UPDATE sync.items AS item
          SET labels = ARRAY(
                SELECT (array_agg(entry.renamed ORDER BY entry.position))[1]
                  FROM (SELECT CASE WHEN lower(label) = lower($2::text) THEN $3::text ELSE label END AS renamed, position
                          FROM unnest(item.labels) WITH ORDINALITY AS listed(label, position)) AS entry
                 GROUP BY lower(entry.renamed)
                 ORDER BY min(entry.position)),
              version = $4, updated_at = now()
        WHERE ${inVisibleProjects('item.project_id')} AND NOT item.is_deleted
          AND EXISTS (SELECT 1 FROM unnest(item.labels) AS label WHERE lower(label) = lower($2::text))
        RETURNING item.project_id)
       SELECT DISTINCT project_id::text FROM changed`,
      [userId, oldName, newName, version],
    );
    return rows.map((row) => row.project_id);
  }

  /** Takes a label off every (not deleted) task the user can see. Returns the projects of the changed tasks. */
  async removeFromTasks(manager: EntityManager, userId: string, name: string, version: string): Promise<string[]> {
    const rows = await manager.query<Array<{ project_id: string }>>(
      `WITH changed AS (
       UPDATE sync.items AS item
          SET labels = ARRAY(SELECT label FROM unnest(item.labels) WITH ORDINALITY AS listed(label, position) WHERE lower(label) <> lower($2::text) ORDER BY position),
              version = $3, updated_at = now()
        WHERE ${inVisibleProjects('item.project_id')} AND NOT item.is_deleted
          AND EXISTS (SELECT 1 FROM unnest(item.labels) AS label WHERE lower(label) = lower($2::text))
        RETURNING item.project_id)
       SELECT DISTINCT project_id::text FROM changed`,
      [userId, name, version],
    );
    return rows.map((row) => row.project_id);
  }
}
