import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PROJECT_COLUMNS, type Project } from './project.model';

export interface NewProject {
  readonly ownerId: string;
  readonly name: string;
  readonly description: string;
  readonly color: string;
  readonly parentId: string | null;
  readonly childOrder: number | null;
  readonly isCollapsed: boolean;
  readonly isFavorite: boolean;
  readonly viewStyle: string;
}

/**
 * Projects visible to a user. Visibility is by owner for now; sharing adds members without
 * changing the callers (every read already goes through `visibleTo`).
 */
@Injectable()
export class ProjectRepository {
  private readonly visibleTo = 'owner_id = $1';

  async insert(manager: EntityManager, project: NewProject, version: string): Promise<Project> {
    const [row] = await manager.query<Project[]>(
      `INSERT INTO sync.projects (owner_id, name, description, color, parent_id, child_order, is_collapsed, is_favorite, view_style, version)
       VALUES ($1, $2, $3, $4, $5,
               COALESCE($6, (SELECT COALESCE(max(child_order), 0) + 1 FROM sync.projects
                              WHERE owner_id = $1 AND parent_id IS NOT DISTINCT FROM $5::bigint AND NOT is_deleted)),
               $7, $8, $9, $10)
       RETURNING ${PROJECT_COLUMNS}`,
      [project.ownerId, project.name, project.description, project.color, project.parentId, project.childOrder, project.isCollapsed, project.isFavorite, project.viewStyle, version],
    );
    return row;
  }

  async findVisible(manager: EntityManager, userId: string, projectId: string): Promise<Project | undefined> {
    const rows = await manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS} FROM sync.projects WHERE ${this.visibleTo} AND id = $2 AND NOT is_deleted`, [
      userId,
      projectId,
    ]);
    return rows[0];
  }

  /** Active projects for a full sync (archived and deleted ones are not part of it). */
  async listActive(manager: EntityManager, userId: string): Promise<Project[]> {
    return await manager.query<Project[]>(
      `SELECT ${PROJECT_COLUMNS} FROM sync.projects WHERE ${this.visibleTo} AND NOT is_deleted AND NOT is_archived ORDER BY child_order, id`,
      [userId],
    );
  }

  /** Everything that changed after a version, deletions included (as tombstones). */
  async listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Project[]> {
    return await manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS} FROM sync.projects WHERE ${this.visibleTo} AND version > $2 ORDER BY id`, [
      userId,
      version,
    ]);
  }
}
