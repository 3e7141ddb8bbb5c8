import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import {
  PROJECT_VIEW_DEFAULTS_COLUMNS,
  type ProjectViewOptionsDefaults,
  SETTINGS_JSON_COLUMNS,
  VIEW_OPTIONS_COLUMNS,
  type ViewOptions,
  type ViewSettings,
} from './view-options.model';
import { type MembershipChanges, NO_MEMBERSHIP_CHANGES, VISIBLE_PROJECTS } from '../membership/membership';

const SETTINGS_ORDER = ['view_mode', 'grouped_by', 'sorted_by', 'sort_order', 'filtered_by', 'show_completed_tasks', 'calendar_settings', 'property_settings'] as const;

function settingsValues(settings: ViewSettings): unknown[] {
  return SETTINGS_ORDER.map((column) => {
    const value = settings[column];
    return SETTINGS_JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value;
  });
}

const QUALIFIED_VIEW_COLUMNS = `v.id::text, v.user_id::text, v.view_type, v.object_id, v.view_mode, v.grouped_by, v.sorted_by, v.sort_order, v.filtered_by,
  v.show_completed_tasks, v.calendar_settings, v.property_settings`;

/**
 * The object a project, label or filter view shows (`viewed`), to tell whether it was deleted.
 * Their object_id is always a real id (view_options_set checks it); the CASE keeps the cast
 * away from other views' object ids.
 */
const VIEWED_OBJECT = `LEFT JOIN LATERAL (
    SELECT p.is_deleted, p.version FROM sync.projects p WHERE p.id = CASE WHEN v.view_type = 'PROJECT' THEN v.object_id::bigint END
    UNION ALL SELECT l.is_deleted, l.version FROM sync.labels l WHERE l.id = CASE WHEN v.view_type = 'LABEL' THEN v.object_id::bigint END
    UNION ALL SELECT f.is_deleted, f.version FROM sync.filters f WHERE f.id = CASE WHEN v.view_type = 'FILTER' THEN v.object_id::bigint END
  ) viewed ON true`;

/** Column list as `d.`-qualified, for reads joined with the project. */
const QUALIFIED_DEFAULTS_COLUMNS = `d.id::text, d.project_id::text, d.view_mode, d.grouped_by, d.sorted_by, d.sort_order, d.filtered_by, d.show_completed_tasks,
  d.calendar_settings, d.property_settings`;

/**
 * Saved view options (a user's own) and project defaults (seen by the project's members). Every
 * method runs on the caller's transaction; the user's lock orders one user's writes.
 */
@Injectable()
export class ViewOptionsRepository {
  /** The user's row for a view, deleted or not (one row per view), locked. */
  async findForUpdate(manager: EntityManager, userId: string, viewType: string, objectId: string | null): Promise<ViewOptions | undefined> {
    const rows = await manager.query<ViewOptions[]>(
      `SELECT ${VIEW_OPTIONS_COLUMNS} FROM sync.view_options WHERE user_id = $1 AND view_type = $2 AND COALESCE(object_id, '') = COALESCE($3, '') FOR UPDATE`,
      [userId, viewType, objectId],
    );
    return rows[0];
  }

  async insert(manager: EntityManager, view: { userId: string; viewType: string; objectId: string | null }, settings: ViewSettings, version: string): Promise<void> {
    await manager.query(
      `INSERT INTO sync.view_options (user_id, view_type, object_id, ${SETTINGS_ORDER.join(', ')}, version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [view.userId, view.viewType, view.objectId, ...settingsValues(settings), version],
    );
  }

  async update(manager: EntityManager, id: string, changes: Partial<ViewSettings & { is_deleted: boolean }>, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.view_options', [id], changes, version, { jsonColumns: SETTINGS_JSON_COLUMNS });
  }

  async listActive(manager: EntityManager, userId: string): Promise<ViewOptions[]> {
    return manager.query<ViewOptions[]>(
      `SELECT ${QUALIFIED_VIEW_COLUMNS}, false AS is_deleted, v.version::text FROM sync.view_options v ${VIEWED_OBJECT}
       WHERE v.user_id = $1 AND NOT v.is_deleted AND NOT COALESCE(viewed.is_deleted, false) ORDER BY v.id`,
      [userId],
    );
  }

  /**
   * Everything stamped after a version, deletions included; and the options of a view whose
   * project, label or filter was deleted after it, as tombstones (they went with their object).
   */
  async listChangedSince(manager: EntityManager, userId: string, version: string): Promise<ViewOptions[]> {
    return manager.query<ViewOptions[]>(
      `SELECT ${QUALIFIED_VIEW_COLUMNS}, (v.is_deleted OR COALESCE(viewed.is_deleted, false)) AS is_deleted,
         GREATEST(v.version, COALESCE(viewed.version, 0))::text AS version
       FROM sync.view_options v ${VIEWED_OBJECT}
       WHERE v.user_id = $1 AND (v.version > $2 OR (viewed.is_deleted AND viewed.version > $2)) ORDER BY v.id`,
      [userId, version],
    );
  }

  /** A project's defaults row, deleted or not, locked. */
  async findDefaultsForUpdate(manager: EntityManager, projectId: string): Promise<ProjectViewOptionsDefaults | undefined> {
    const rows = await manager.query<ProjectViewOptionsDefaults[]>(`SELECT ${PROJECT_VIEW_DEFAULTS_COLUMNS} FROM sync.project_view_options_defaults WHERE project_id = $1 FOR UPDATE`, [
      projectId,
    ]);
    return rows[0];
  }

  async insertDefaults(manager: EntityManager, projectId: string, settings: ViewSettings, version: string): Promise<void> {
    await manager.query(
      `INSERT INTO sync.project_view_options_defaults (project_id, ${SETTINGS_ORDER.join(', ')}, version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [projectId, ...settingsValues(settings), version],
    );
  }

  async updateDefaults(manager: EntityManager, id: string, changes: Partial<ViewSettings & { is_deleted: boolean }>, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.project_view_options_defaults', [id], changes, version, { jsonColumns: SETTINGS_JSON_COLUMNS });
  }

  /** Defaults of the live projects the user sees. */
  async listActiveDefaults(manager: EntityManager, userId: string): Promise<ProjectViewOptionsDefaults[]> {
    return manager.query<ProjectViewOptionsDefaults[]>(
      `SELECT ${QUALIFIED_DEFAULTS_COLUMNS}, false AS is_deleted, d.version::text
       FROM sync.project_view_options_defaults d JOIN sync.projects p ON p.id = d.project_id
       WHERE d.project_id IN (${VISIBLE_PROJECTS}) AND NOT d.is_deleted AND NOT p.is_deleted ORDER BY d.id`,
      [userId],
    );
  }

  /**
   * Defaults changed after a version, and those whose project was deleted after it: a deleted
   * project takes its defaults with it, so they arrive as tombstones without a write of their own.
   * So do a left project's (`memberships.left`); a joined project's come whole, as a full sync has them.
   */
  async listDefaultsChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges = NO_MEMBERSHIP_CHANGES): Promise<ProjectViewOptionsDefaults[]> {
    if (memberships.joined.length === 0 && memberships.left.length === 0) {
      return manager.query<ProjectViewOptionsDefaults[]>(
        `SELECT ${QUALIFIED_DEFAULTS_COLUMNS}, (d.is_deleted OR p.is_deleted) AS is_deleted, GREATEST(d.version, p.version)::text AS version
         FROM sync.project_view_options_defaults d JOIN sync.projects p ON p.id = d.project_id
         WHERE d.project_id IN (${VISIBLE_PROJECTS}) AND (d.version > $2 OR (p.is_deleted AND p.version > $2)) ORDER BY d.id`,
        [userId, version],
      );
    }
    return manager.query<ProjectViewOptionsDefaults[]>(
      `SELECT ${QUALIFIED_DEFAULTS_COLUMNS}, (d.is_deleted OR p.is_deleted OR d.project_id = ANY($4::bigint[])) AS is_deleted, GREATEST(d.version, p.version)::text AS version
       FROM sync.project_view_options_defaults d JOIN sync.projects p ON p.id = d.project_id
       WHERE (d.project_id IN (${VISIBLE_PROJECTS}) AND (d.version > $2 OR (p.is_deleted AND p.version > $2)))
          OR (d.project_id = ANY($3::bigint[]) AND NOT d.is_deleted AND NOT p.is_deleted)
          OR (d.project_id = ANY($4::bigint[]) AND (NOT d.is_deleted OR d.version > $2))
       ORDER BY d.id`,
      [userId, version, memberships.joined, memberships.left],
    );
  }
}
