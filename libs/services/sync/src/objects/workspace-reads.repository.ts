import type { ApiProjectPerson, Page, WorkspaceRole } from '@doable/contracts-sync';
import { isObjectId } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Folder, FOLDER_COLUMNS, type Project, PROJECT_COLUMNS, PROJECT_ROLE_COLUMN, VISIBLE_PROJECTS, VISIBLE_WORKSPACES, type WorkspaceMember } from '@doable/sync-domain';
import { ListSql, pageOf } from './list-sql';
import type { Paged } from './object-reads.repository';

/** A workspace invitation as the api/v1 endpoints answer it (sdk 17 WorkspaceInvitationSchema, before its camelCase). */
export interface WorkspaceInvitationRow {
  id: string;
  inviter_id: string;
  user_email: string;
  workspace_id: string;
  role: WorkspaceRole;
  state: string;
}

const INVITATION_COLUMNS = `id::text, inviter_id::text, invitee_email AS user_email, workspace_id::text, role, state`;

/** A user's state in a project as `projects/{id}/join` answers it (the sync collaborator_states shape). */
export interface ProjectStateRow {
  project_id: string;
  user_id: string;
  state: string;
  is_deleted: boolean;
  role: string;
  workspace_role: WorkspaceRole | null;
}

/**
 * The reads behind the api/v1 workspace and folder endpoints, each bounded by the reader's
 * active workspace memberships (`$1`, VISIBLE_WORKSPACES). Invitations are read here directly
 * (sync.workspace_invitations): the invitation commands' repository is the write side's.
 */
@Injectable()
export class WorkspaceReadsRepository {
  /** Active members of one of the reader's workspaces, or of all of them. */
  async members(manager: EntityManager, userId: string, workspaceId: string | undefined, page: Page | undefined): Promise<Paged<WorkspaceMember>> {
    const sql = new ListSql(userId).where(`m.workspace_id IN (${VISIBLE_WORKSPACES})`).where(`m.state = 'active'`);
    if (workspaceId !== undefined) sql.where(`m.workspace_id = ${sql.value(workspaceId)}`);
    const rows = await manager.query<WorkspaceMember[]>(
      `SELECT m.workspace_id::text, m.user_id::text, u.email, u.full_name, u.timezone, u.image_id, m.role, false AS is_deleted, m.version::text
         FROM sync.workspace_members m JOIN sync.users u ON u.id = m.user_id
        ${sql.whereClause()} ORDER BY m.workspace_id, m.user_id ${sql.limitClause(page)}`,
      sql.params,
    );
    return pageOf(rows, page);
  }

  /** Open invitations of these workspaces, oldest first. */
  async pendingInvitations(manager: EntityManager, workspaceIds: readonly string[]): Promise<WorkspaceInvitationRow[]> {
    if (workspaceIds.length === 0) return [];
    return manager.query<WorkspaceInvitationRow[]>(
      `SELECT ${INVITATION_COLUMNS} FROM sync.workspace_invitations WHERE workspace_id = ANY($1::bigint[]) AND state = 'invited' ORDER BY workspace_id, id`,
      [workspaceIds],
    );
  }

  /** The newest invitation of a workspace to an address, in any state. */
  async invitationTo(manager: EntityManager, workspaceId: string, email: string): Promise<WorkspaceInvitationRow | undefined> {
    const rows = await manager.query<WorkspaceInvitationRow[]>(
      `SELECT ${INVITATION_COLUMNS} FROM sync.workspace_invitations WHERE workspace_id = $1 AND lower(invitee_email) = lower($2) ORDER BY id DESC LIMIT 1`,
      [workspaceId, email],
    );
    return rows[0];
  }

  /** The reader's own invitation (sent to their account or their address) whose secret hashes to this, in any state. */
  async ownInvitationBySecretHash(manager: EntityManager, userId: string, secretHash: string): Promise<WorkspaceInvitationRow | undefined> {
    const rows = await manager.query<WorkspaceInvitationRow[]>(
      `SELECT ${INVITATION_COLUMNS} FROM sync.workspace_invitations
        WHERE secret_hash = $2 AND (invitee_id = $1 OR lower(invitee_email) = (SELECT lower(email) FROM sync.users WHERE id = $1))
        ORDER BY id DESC LIMIT 1`,
      [userId, secretHash],
    );
    return rows[0];
  }

  /**
   * A workspace's projects as its member sees them (not deleted; active or archived): those they
   * are a collaborator of, and, unless they are a guest, those open to the team they may join
   * (not invite-only, not restricted).
   */
  async projects(manager: EntityManager, userId: string, workspaceId: string, options: { archived: boolean; browsesTeam: boolean }, page: Page | undefined): Promise<Paged<Project>> {
    const list = new ListSql(userId);
    list.where(`workspace_id = ${list.value(workspaceId)}`).where('NOT is_deleted').where(options.archived ? 'is_archived' : 'NOT is_archived');
    const collaborator = `id IN (${VISIBLE_PROJECTS})`;
    list.where(options.browsesTeam ? `(${collaborator} OR (NOT is_invite_only AND visibility <> 'restricted'))` : collaborator);
    const rows = await manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS}, ${PROJECT_ROLE_COLUMN} FROM sync.projects ${list.whereClause()} ORDER BY child_order, id ${list.limitClause(page)}`, list.params);
    return pageOf(rows, page);
  }

  /** Folders of one of the reader's workspaces, or of all of them (not deleted). */
  async folders(manager: EntityManager, userId: string, workspaceId: string | undefined, page: Page | undefined): Promise<Paged<Folder>> {
    const sql = new ListSql(userId).where(`workspace_id IN (${VISIBLE_WORKSPACES})`).where('NOT is_deleted');
    if (workspaceId !== undefined) sql.where(`workspace_id = ${sql.value(workspaceId)}`);
    const rows = await manager.query<Folder[]>(`SELECT ${FOLDER_COLUMNS} FROM sync.folders ${sql.whereClause()} ORDER BY workspace_id, default_order, id ${sql.limitClause(page)}`, sql.params);
    return pageOf(rows, page);
  }

  /** A folder of one of the reader's workspaces (not deleted). */
  async folder(manager: EntityManager, userId: string, folderId: string): Promise<Folder | undefined> {
    if (!isObjectId(folderId)) return undefined;
    const rows = await manager.query<Folder[]>(`SELECT ${FOLDER_COLUMNS} FROM sync.folders WHERE workspace_id IN (${VISIBLE_WORKSPACES}) AND id = $2 AND NOT is_deleted`, [userId, folderId]);
    return rows[0];
  }

  /** The active members of a project the reader can see, with their workspace role when it is a workspace project's. */
  async projectStates(manager: EntityManager, projectId: string): Promise<ProjectStateRow[]> {
    return manager.query<ProjectStateRow[]>(
      `SELECT pm.project_id::text, pm.user_id::text, 'active' AS state, false AS is_deleted, pm.role, wm.role AS workspace_role
         FROM sync.project_members pm
         JOIN sync.projects p ON p.id = pm.project_id
         LEFT JOIN sync.workspace_members wm ON wm.workspace_id = p.workspace_id AND wm.user_id = pm.user_id AND wm.state = 'active'
        WHERE pm.project_id = $1 AND pm.state = 'active' ORDER BY pm.user_id`,
      [projectId],
    );
  }

  /** The users of those states (the sync collaborators shape). */
  async users(manager: EntityManager, userIds: readonly string[]): Promise<ApiProjectPerson[]> {
    if (userIds.length === 0) return [];
    return manager.query(`SELECT id::text, email, full_name, timezone, image_id FROM sync.users WHERE id = ANY($1::bigint[]) ORDER BY id`, [userIds]);
  }

  /** The reader's visible sub-projects of a project (not deleted). */
  async subprojects(manager: EntityManager, userId: string, projectId: string): Promise<Project[]> {
    return manager.query<Project[]>(
      `SELECT ${PROJECT_COLUMNS}, ${PROJECT_ROLE_COLUMN} FROM sync.projects
        WHERE parent_id = $2 AND NOT is_deleted AND id IN (${VISIBLE_PROJECTS})
        ORDER BY child_order, id`,
      [userId, projectId],
    );
  }
}
