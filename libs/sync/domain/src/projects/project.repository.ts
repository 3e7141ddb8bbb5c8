import { isObjectId } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { PROJECT_COLUMNS, PROJECT_ROLE_COLUMN, PROJECT_WIRE_COLUMNS, type Project, type WireProject } from './project.model';
import { changedSinceCondition, changedSinceParams, type MembershipChanges, NO_MEMBERSHIP_CHANGES, VISIBLE_PROJECTS } from '../membership/membership';

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
  /** A workspace project's team settings (all absent: a personal project, the columns' defaults). */
  readonly workspace?: WorkspaceProjectSettings;
}

/** What project_add stores of a workspace project. */
export interface WorkspaceProjectSettings {
  readonly workspaceId: string;
  readonly folderId: string | null;
  readonly isInviteOnly: boolean;
  readonly status: string;
  readonly visibility: string;
  readonly collaboratorRoleDefault: string;
}

/** The columns project_update and the moves change, besides the personal ones. */
export type ProjectChanges = Partial<{
  name: string;
  description: string;
  color: string;
  is_collapsed: boolean;
  is_favorite: boolean;
  view_style: string;
  parent_id: string | null;
  child_order: number;
  workspace_id: string | null;
  folder_id: string | null;
  is_invite_only: boolean;
  status: string;
  visibility: string;
  collaborator_role_default: string;
  is_link_sharing_enabled: boolean;
}>;

/** Whose plan a project's contents count against, and whether others write to it too. */
export interface ProjectOwner {
  readonly owner_id: string;
  readonly shared: boolean;
  /** A workspace project's workspace: its plan counts the project's contents instead of the owner's. */
  readonly workspace_id: string | null;
}

/**
 * Projects visible to a user: those they are a member of (VISIBLE_PROJECTS). Sharing adds
 * members without changing any of these reads.
 */
@Injectable()
export class ProjectRepository {
  private readonly visibleTo = `id IN (${VISIBLE_PROJECTS})`;
  /** The user's active projects, in order: a full sync's. */
  private readonly active = `FROM sync.projects WHERE ${this.visibleTo} AND NOT is_deleted AND NOT is_archived ORDER BY child_order, id`;

  async insert(manager: EntityManager, project: NewProject, version: string): Promise<Project> {
    const [row] = await manager.query<Project[]>(
      `INSERT INTO sync.projects (owner_id, name, description, color, parent_id, child_order, is_collapsed, is_favorite, view_style, version,
                                  workspace_id, folder_id, is_invite_only, status, visibility, collaborator_role_default)
       VALUES ($1, $2, $3, $4, $5,
               COALESCE($6, (SELECT COALESCE(max(child_order), 0) + 1 FROM sync.projects
                              WHERE owner_id = $1 AND parent_id IS NOT DISTINCT FROM $5::bigint AND NOT is_deleted)),
               $7, $8, $9, $10, $11, $12, COALESCE($13, false), COALESCE($14, 'IN_PROGRESS'), COALESCE($15, 'team'), COALESCE($16, 'READ_WRITE'))
       RETURNING ${PROJECT_COLUMNS}`,
      [
        project.ownerId,
        project.name,
        project.description,
        project.color,
        project.parentId,
        project.childOrder,
        project.isCollapsed,
        project.isFavorite,
        project.viewStyle,
        version,
        project.workspace?.workspaceId ?? null,
        project.workspace?.folderId ?? null,
        project.workspace?.isInviteOnly ?? null,
        project.workspace?.status ?? null,
        project.workspace?.visibility ?? null,
        project.workspace?.collaboratorRoleDefault ?? null,
      ],
    );
    await manager.query(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'CREATOR', $3)`, [row.id, project.ownerId, version]);
    return row;
  }

  async findVisible(manager: EntityManager, userId: string, projectId: string): Promise<Project | undefined> {
    const rows = await manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS}, ${PROJECT_ROLE_COLUMN} FROM sync.projects WHERE ${this.visibleTo} AND id = $2 AND NOT is_deleted`, [
      userId,
      projectId,
    ]);
    return rows[0];
  }

  /**
   * The project by id (not deleted) whoever asks, without the membership check: only for
   * project_join, whose caller is no member yet and is checked against the project's workspace
   * instead. Locked, so two joins of one project are one after another.
   */
  async findForJoin(manager: EntityManager, projectId: string): Promise<Project | undefined> {
    if (!isObjectId(projectId)) return undefined;
    const rows = await manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS} FROM sync.projects WHERE id = $1 AND NOT is_deleted FOR UPDATE`, [projectId]);
    return rows[0];
  }

  /** A workspace's active projects (not archived, not deleted): what the workspace plan's max_projects counts. */
  async countActiveInWorkspace(manager: EntityManager, workspaceId: string): Promise<number> {
    const [{ count }] = await manager.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM sync.projects WHERE workspace_id = $1 AND NOT is_deleted AND NOT is_archived`,
      [workspaceId],
    );
    return count;
  }

  /** The active members' ids of a project, in id order (the collaborators an event names). */
  async memberIds(manager: EntityManager, projectId: string): Promise<string[]> {
    const rows = await manager.query<Array<{ user_id: string }>>(
      `SELECT user_id::text FROM sync.project_members WHERE project_id = $1 AND state = 'active' ORDER BY user_id`,
      [projectId],
    );
    return rows.map((row) => row.user_id);
  }

  /** Takes every project out of a folder (the folder was deleted); answers the projects, to be touched. */
  async clearFolder(manager: EntityManager, folderId: string, version: string): Promise<string[]> {
    const rows = await manager.query<Array<{ id: string }>>(
      `WITH cleared AS (UPDATE sync.projects SET folder_id = NULL, version = $2, updated_at = now() WHERE folder_id = $1 RETURNING id)
       SELECT id::text FROM cleared ORDER BY id`,
      [folderId, version],
    );
    return rows.map((row) => row.id);
  }

  /** A workspace's projects (not deleted), archived ones too. */
  async idsInWorkspace(manager: EntityManager, workspaceId: string): Promise<string[]> {
    const rows = await manager.query<Array<{ id: string }>>(`SELECT id::text FROM sync.projects WHERE workspace_id = $1 AND NOT is_deleted ORDER BY id`, [workspaceId]);
    return rows.map((row) => row.id);
  }

  /** The project and all its sub-projects (not deleted), the project first. */
  async subtree(manager: EntityManager, projectId: string): Promise<Project[]> {
    return manager.query<Project[]>(
      `WITH RECURSIVE tree AS (
         SELECT id, 0 AS depth FROM sync.projects WHERE id = $1
         UNION ALL
         SELECT child.id, tree.depth + 1 FROM sync.projects child JOIN tree ON child.parent_id = tree.id WHERE NOT child.is_deleted
       )
       SELECT ${PROJECT_COLUMNS} FROM sync.projects JOIN tree USING (id) ORDER BY tree.depth, child_order, id`,
      [projectId],
    );
  }

  async update(manager: EntityManager, projectId: string, changes: ProjectChanges, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.projects', [projectId], changes, version);
  }

  /** Gives the project another owner (project_move_to_personal by a workspace admin); the memberships are the caller's. */
  async setOwner(manager: EntityManager, projectId: string, ownerId: string, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.projects', [projectId], { owner_id: ownerId }, version);
  }

  /** The same changes to several projects (a project and its sub-projects moving between workspaces). */
  async updateMany(manager: EntityManager, projectIds: readonly string[], changes: ProjectChanges, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.projects', projectIds, changes, version);
  }

  async setState(manager: EntityManager, projectIds: readonly string[], state: Partial<{ is_archived: boolean; is_deleted: boolean }>, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.projects', projectIds, state, version);
  }

  /** Who owns a project (not deleted), and whether anyone else is an active member of it. */
  async ownerOf(manager: EntityManager, projectId: string): Promise<ProjectOwner | undefined> {
    const rows = await manager.query<ProjectOwner[]>(
      `SELECT project.owner_id::text AS owner_id, project.workspace_id::text AS workspace_id,
              EXISTS (SELECT 1 FROM sync.project_members other
                       WHERE other.project_id = project.id AND other.state = 'active' AND other.user_id <> project.owner_id) AS shared
         FROM sync.projects project WHERE project.id = $1 AND NOT project.is_deleted`,
      [projectId],
    );
    return rows[0];
  }

  /**
   * The user's own active personal projects (not archived, not deleted), the Inbox left out: what
   * max_projects counts (a workspace project counts against its workspace's plan instead).
   */
  async countOwnedActive(manager: EntityManager, userId: string): Promise<number> {
    const [{ owned }] = await manager.query<Array<{ owned: number }>>(
      `SELECT count(*)::int AS owned FROM sync.projects WHERE owner_id = $1 AND workspace_id IS NULL AND NOT is_deleted AND NOT is_archived AND NOT inbox_project`,
      [userId],
    );
    return owned;
  }

  /**
   * The projects of others the user is an active member of (not deleted; archived ones too, their
   * membership goes on): what max_projects_joined counts.
   */
  async countJoined(manager: EntityManager, userId: string): Promise<number> {
    const [{ joined }] = await manager.query<Array<{ joined: number }>>(
      `SELECT count(*)::int AS joined FROM sync.project_members member JOIN sync.projects project ON project.id = member.project_id
        WHERE member.user_id = $1 AND member.state = 'active' AND project.owner_id <> $1 AND NOT project.is_deleted`,
      [userId],
    );
    return joined;
  }

  async nextChildOrder(manager: EntityManager, userId: string, parentId: string | null): Promise<number> {
    const [{ next }] = await manager.query<Array<{ next: number }>>(
      `SELECT COALESCE(max(child_order), 0) + 1 AS next FROM sync.projects
        WHERE ${this.visibleTo} AND parent_id IS NOT DISTINCT FROM $2::bigint AND NOT is_deleted`,
      [userId, parentId],
    );
    return next;
  }

  /** Active projects for a full sync (archived and deleted ones are not part of it). */
  async listActive(manager: EntityManager, userId: string): Promise<Project[]> {
    return await manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS}, ${PROJECT_ROLE_COLUMN} ${this.active}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireProject[]> {
    return await manager.query<WireProject[]>(`SELECT ${PROJECT_WIRE_COLUMNS}, ${PROJECT_ROLE_COLUMN} ${this.active}`, [userId]);
  }

  /**
   * Everything that changed after a version, deletions included (as tombstones); projects joined
   * since (unless archived or deleted, as a full sync), and tombstones of projects left since.
   */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges = NO_MEMBERSHIP_CHANGES): Promise<Project[]> {
    const rows = await manager.query<Project[]>(
      `SELECT ${PROJECT_COLUMNS}, ${PROJECT_ROLE_COLUMN} FROM sync.projects WHERE ${changedSinceCondition(memberships, 'NOT is_deleted AND NOT is_archived', 'id')} ORDER BY id`,
      changedSinceParams(userId, version, memberships),
    );
    const left = new Set(memberships.left);
    for (const row of rows) if (left.has(row.id)) row.is_deleted = true;
    return rows;
  }

}
