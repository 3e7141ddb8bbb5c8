import { isWorkspaceRole, type WorkspaceRole } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type WorkspaceMember } from './workspace.model';
import { type MembershipChanges, VISIBLE_WORKSPACES } from '../membership/membership';

const MEMBER_COLUMNS = `m.workspace_id::text, m.user_id::text, u.email, u.full_name, u.timezone, u.image_id, m.role, m.state <> 'active' AS is_deleted, m.version::text`;

/**
 * Workspace membership: who is in a workspace and with which role (the write side's definition;
 * VISIBLE_WORKSPACES is the read side's). A member who leaves or is removed keeps the row as
 * `deleted`; every change stamps the row's version, so incremental syncs find it.
 */
@Injectable()
export class WorkspaceMembersRepository {
  /** The user's role in the workspace, or undefined when they are not an active member (or it was deleted). */
  async roleOf(manager: EntityManager, workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
    const rows = await manager.query<Array<{ role: string }>>(
      `SELECT m.role FROM sync.workspace_members m JOIN sync.workspaces w ON w.id = m.workspace_id
        WHERE m.workspace_id = $1 AND m.user_id = $2 AND m.state = 'active' AND NOT w.is_deleted`,
      [workspaceId, userId],
    );
    const role = rows[0]?.role;
    return isWorkspaceRole(role) ? role : undefined;
  }

  /** The active member with this user id, locked for the rest of the transaction. */
  async findActive(manager: EntityManager, workspaceId: string, userId: string): Promise<WorkspaceMember | undefined> {
    return this.findOne(manager, workspaceId, 'm.user_id = $2', userId);
  }

  /** The active member with this address (compared lower-cased), locked for the rest of the transaction. */
  async findActiveByEmail(manager: EntityManager, workspaceId: string, email: string): Promise<WorkspaceMember | undefined> {
    return this.findOne(manager, workspaceId, 'lower(u.email) = lower($2)', email);
  }

  /**
   * Makes the user an active member with the role: a new row, or the row of a membership they
   * left or were removed from. An active member keeps their role (answers false then).
   */
  async addOrReactivate(manager: EntityManager, workspaceId: string, userId: string, role: WorkspaceRole, version: string): Promise<boolean> {
    const rows = await manager.query<Array<{ user_id: string }>>(
      `INSERT INTO sync.workspace_members (workspace_id, user_id, role, state, version, joined_at) VALUES ($1, $2, $3, 'active', $4, now())
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role, state = 'active', version = EXCLUDED.version, joined_at = now(), is_collapsed = false
         WHERE sync.workspace_members.state <> 'active'
       RETURNING user_id::text`,
      [workspaceId, userId, role, version],
    );
    return rows.length > 0;
  }

  /** Ends an active membership (left or removed). Answers whether there was one to end. */
  async remove(manager: EntityManager, workspaceId: string, userId: string, version: string): Promise<boolean> {
    const rows = await manager.query<Array<{ user_id: string }>>(
      `WITH ended AS (UPDATE sync.workspace_members SET state = 'deleted', version = $3 WHERE workspace_id = $1 AND user_id = $2 AND state = 'active' RETURNING user_id)
       SELECT user_id::text FROM ended`,
      [workspaceId, userId, version],
    );
    return rows.length > 0;
  }

  /** Gives an active member another role. Answers whether there was such a member. */
  async changeRole(manager: EntityManager, workspaceId: string, userId: string, role: WorkspaceRole, version: string): Promise<boolean> {
    const rows = await manager.query<Array<{ user_id: string }>>(
      `WITH changed AS (UPDATE sync.workspace_members SET role = $3, version = $4 WHERE workspace_id = $1 AND user_id = $2 AND state = 'active' RETURNING user_id)
       SELECT user_id::text FROM changed`,
      [workspaceId, userId, role, version],
    );
    return rows.length > 0;
  }

  /** The member's own sidebar state of the workspace. */
  async setCollapsed(manager: EntityManager, workspaceId: string, userId: string, collapsed: boolean, version: string): Promise<void> {
    await manager.query(`UPDATE sync.workspace_members SET is_collapsed = $3, version = $4 WHERE workspace_id = $1 AND user_id = $2 AND state = 'active'`, [
      workspaceId,
      userId,
      collapsed,
      version,
    ]);
  }

  /** The active members' ids, optionally of some roles only, in id order. */
  async memberIds(manager: EntityManager, workspaceId: string, roles?: readonly WorkspaceRole[]): Promise<string[]> {
    const rows = await manager.query<Array<{ user_id: string }>>(
      `SELECT user_id::text FROM sync.workspace_members WHERE workspace_id = $1 AND state = 'active' AND ($2::text[] IS NULL OR role = ANY($2::text[])) ORDER BY user_id`,
      [workspaceId, roles ?? null],
    );
    return rows.map((row) => row.user_id);
  }

  /** How many active members have this role (what max_guests_per_workspace counts for GUEST). */
  async countWithRole(manager: EntityManager, workspaceId: string, role: WorkspaceRole): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM sync.workspace_members WHERE workspace_id = $1 AND state = 'active' AND role = $2`,
      [workspaceId, role],
    );
    return row.count;
  }

  /** A workspace's active members, in user id order, for `GET /api/v1/workspaces/users`. */
  async listActive(manager: EntityManager, workspaceId: string): Promise<WorkspaceMember[]> {
    return manager.query<WorkspaceMember[]>(
      `SELECT ${MEMBER_COLUMNS} FROM sync.workspace_members m JOIN sync.users u ON u.id = m.user_id
        WHERE m.workspace_id = $1 AND m.state = 'active' ORDER BY m.user_id`,
      [workspaceId],
    );
  }

  /**
   * `workspace_users` of an incremental sync: memberships of the user's workspaces changed after
   * the version (ended ones as is_deleted), every member of a workspace joined since, and every
   * member of one left since as a tombstone.
   */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<WorkspaceMember[]> {
    const rows = await manager.query<WorkspaceMember[]>(
      `SELECT ${MEMBER_COLUMNS} FROM sync.workspace_members m JOIN sync.users u ON u.id = m.user_id
        WHERE (m.workspace_id IN (${VISIBLE_WORKSPACES}) AND m.version > $2)
           OR (m.workspace_id = ANY($3::bigint[]) AND m.state = 'active')
           OR m.workspace_id = ANY($4::bigint[])
        ORDER BY m.workspace_id, m.user_id`,
      [userId, version, memberships.workspacesJoined, memberships.workspacesLeft],
    );
    const left = new Set(memberships.workspacesLeft);
    for (const row of rows) if (left.has(row.workspace_id)) row.is_deleted = true;
    return rows;
  }

  /**
   * What workspace_users shows of the user changed (their avatar): their active memberships take
   * the change's version, so incremental syncs carry them again. Answers those workspaces, to be touched.
   */
  async restampMember(manager: EntityManager, userId: string, version: string): Promise<string[]> {
    const [rows] = await manager.query<[Array<{ workspace_id: string }>, number]>(
      `UPDATE sync.workspace_members SET version = $2 WHERE user_id = $1 AND state = 'active' RETURNING workspace_id::text`,
      [userId, version],
    );
    return rows.map((row) => row.workspace_id);
  }

  /**
   * Ends the user's memberships of the workspace's projects (removed from or leaving the
   * workspace: they lose access at once). Answers the projects they were in, to be touched.
   */
  async endProjectMemberships(manager: EntityManager, workspaceId: string, userId: string, version: string): Promise<string[]> {
    const rows = await manager.query<Array<{ project_id: string }>>(
      `WITH ended AS (
         UPDATE sync.project_members SET state = 'deleted', version = $3
          WHERE user_id = $2 AND state = 'active' AND project_id IN (SELECT id FROM sync.projects WHERE workspace_id = $1)
          RETURNING project_id)
       SELECT project_id::text FROM ended ORDER BY project_id`,
      [workspaceId, userId, version],
    );
    return rows.map((row) => row.project_id);
  }

  private async findOne(manager: EntityManager, workspaceId: string, match: string, value: string): Promise<WorkspaceMember | undefined> {
    const rows = await manager.query<WorkspaceMember[]>(
      `SELECT ${MEMBER_COLUMNS} FROM sync.workspace_members m JOIN sync.users u ON u.id = m.user_id
        WHERE m.workspace_id = $1 AND m.state = 'active' AND ${match}
        FOR UPDATE OF m`,
      [workspaceId, value],
    );
    return rows[0];
  }
}
