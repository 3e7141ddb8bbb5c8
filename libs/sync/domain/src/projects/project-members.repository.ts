import { effectiveProjectRole, isProjectRole, isWorkspaceRole, type ProjectRole, type WorkspaceRole } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** An active member as the sharing commands need them: who, with which role, and their name for events. */
export interface ActiveMember {
  readonly user_id: string;
  readonly role: ProjectRole;
  readonly email: string;
  readonly full_name: string;
}

/** How a user stands in a project: their effective role, and the project's workspace and their role there. */
export interface ProjectAccessRow {
  readonly role: ProjectRole;
  readonly workspaceId: string | null;
  readonly workspaceRole: WorkspaceRole | null;
}

/**
 * Project membership: who is in a project and with which role. VISIBLE_PROJECTS (item.model)
 * is the read side's one definition of it; this is the write side's. A member who leaves or is
 * removed keeps the row as `deleted` (their next incremental sync carries the project's
 * tombstones from it); every change stamps the row's version, so incremental syncs find it.
 */
@Injectable()
export class ProjectMembersRepository {
  /** The user's role in the project, or undefined when they are not an active member. */
  async roleOf(manager: EntityManager, projectId: string, userId: string): Promise<ProjectRole | undefined> {
    const rows = await manager.query<Array<{ role: string }>>(
      `SELECT role FROM sync.project_members WHERE project_id = $1 AND user_id = $2 AND state = 'active'`,
      [projectId, userId],
    );
    const role = rows[0]?.role;
    return isProjectRole(role) ? role : undefined;
  }

  /**
   * The role the user acts with in the project: their own, raised to ADMIN when the project
   * belongs to a workspace they administer (sync-interface §5.11: workspace admins manage the
   * collaborators of workspace projects). Undefined when they are not an active member.
   */
  async effectiveRoleOf(manager: EntityManager, projectId: string, userId: string): Promise<ProjectRole | undefined> {
    return (await this.effectiveAccessOf(manager, projectId, userId))?.role;
  }

  /**
   * effectiveRoleOf, with the workspace the project belongs to (null: a personal project) and the
   * user's role in that workspace (null: a personal project, or a collaborator who is no active
   * member of the workspace), read by the same query.
   */
  async effectiveAccessOf(manager: EntityManager, projectId: string, userId: string): Promise<ProjectAccessRow | undefined> {
    const rows = await manager.query<Array<{ role: string; workspace_role: string | null; workspace_id: string | null }>>(
      `SELECT member.role, workspace_member.role AS workspace_role, project.workspace_id::text AS workspace_id
         FROM sync.project_members member
         JOIN sync.projects project ON project.id = member.project_id
         LEFT JOIN sync.workspace_members workspace_member
           ON workspace_member.workspace_id = project.workspace_id AND workspace_member.user_id = member.user_id AND workspace_member.state = 'active'
        WHERE member.project_id = $1 AND member.user_id = $2 AND member.state = 'active'`,
      [projectId, userId],
    );
    const row = rows[0];
    if (!row || !isProjectRole(row.role)) return undefined;
    const workspaceRole = isWorkspaceRole(row.workspace_role) ? row.workspace_role : null;
    return { role: effectiveProjectRole(row.role, workspaceRole), workspaceId: row.workspace_id, workspaceRole };
  }

  /**
   * The active member with this address (compared lower-cased, as invitations store it), locked
   * for the rest of the transaction; undefined when the address is no member.
   */
  async findActiveByEmail(manager: EntityManager, projectId: string, email: string): Promise<ActiveMember | undefined> {
    return this.findActive(manager, projectId, 'lower(u.email) = lower($2)', email);
  }

  /** The active member with this user id, locked for the rest of the transaction. */
  async findActiveById(manager: EntityManager, projectId: string, userId: string): Promise<ActiveMember | undefined> {
    return this.findActive(manager, projectId, 'm.user_id = $2', userId);
  }

  /**
   * Makes the user an active member with the role: a new row, or the row of an earlier
   * membership they left or were removed from (joined again now). An active member stays as
   * they are (an invitation never changes a role, the CREATOR's least of all).
   */
  async addOrReactivate(manager: EntityManager, projectId: string, userId: string, role: ProjectRole, version: string): Promise<void> {
    await manager.query(
      `INSERT INTO sync.project_members (project_id, user_id, role, state, version, joined_at) VALUES ($1, $2, $3, 'active', $4, now())
       ON CONFLICT (project_id, user_id) DO UPDATE SET role = EXCLUDED.role, state = 'active', version = EXCLUDED.version, joined_at = now()
         WHERE sync.project_members.state <> 'active'`,
      [projectId, userId, role, version],
    );
  }

  /** Ends an active membership (left or removed). Answers whether there was one to end. */
  async remove(manager: EntityManager, projectId: string, userId: string, version: string): Promise<boolean> {
    const rows = await manager.query<[unknown[], number]>(
      `UPDATE sync.project_members SET state = 'deleted', version = $3 WHERE project_id = $1 AND user_id = $2 AND state = 'active' RETURNING user_id`,
      [projectId, userId, version],
    );
    return rows[1] > 0;
  }

  /** Gives an active member another role. Answers whether there was such a member. */
  async changeRole(manager: EntityManager, projectId: string, userId: string, role: ProjectRole, version: string): Promise<boolean> {
    const rows = await manager.query<[unknown[], number]>(
      `UPDATE sync.project_members SET role = $3, version = $4 WHERE project_id = $1 AND user_id = $2 AND state = 'active' RETURNING user_id`,
      [projectId, userId, role, version],
    );
    return rows[1] > 0;
  }


  private async findActive(manager: EntityManager, projectId: string, match: string, value: string): Promise<ActiveMember | undefined> {
    const rows = await manager.query<Array<{ user_id: string; role: string; email: string; full_name: string }>>(
      `SELECT m.user_id::text, m.role, u.email, u.full_name
         FROM sync.project_members m JOIN sync.users u ON u.id = m.user_id
        WHERE m.project_id = $1 AND m.state = 'active' AND ${match}
        FOR UPDATE OF m`,
      [projectId, value],
    );
    const row = rows[0];
    return row && isProjectRole(row.role) ? { ...row, role: row.role } : undefined;
  }
}
