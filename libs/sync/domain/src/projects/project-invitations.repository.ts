import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InvitationsTable } from '../membership/invitations.table';
import { PROJECT_INVITATION_COLUMNS, type ProjectInvitation } from './project-invitations.model';

export interface NewInvitation {
  readonly projectId: string;
  readonly inviterId: string;
  /** Lower-cased by the caller. */
  readonly inviteeEmail: string;
  readonly inviteeId: string | null;
  readonly role: ProjectInvitation['role'];
  readonly message: string;
  readonly secretHash: string;
}

/** A waiting invitation with what its event needs besides the invitation itself. */
export interface WaitingInvitation extends ProjectInvitation {
  project_name: string;
}

/** Invitations to projects (share_project and its answers). Every method runs on the caller's transaction. */
@Injectable()
export class ProjectInvitationsRepository extends InvitationsTable<ProjectInvitation, WaitingInvitation> {
  constructor() {
    super({ table: 'project_invitations', scopeColumn: 'project_id', scopeTable: 'projects', columns: PROJECT_INVITATION_COLUMNS, scopeNameAs: 'project_name' });
  }

  /** Records an invitation, or re-sends the open one (InvitationsTable.upsert), with its message. */
  upsertOpen(manager: EntityManager, invitation: NewInvitation, version: string): Promise<ProjectInvitation> {
    const { projectId, inviterId, inviteeEmail, inviteeId, role, message, secretHash } = invitation;
    return this.upsert(manager, { project_id: projectId, inviter_id: inviterId, invitee_email: inviteeEmail, invitee_id: inviteeId, role, message, secret_hash: secretHash }, version);
  }

  /**
   * What a project holds against its owner's max_collaborators: its active members besides the
   * owner, and its open invitations (each a seat promised: accepting one adds no one new).
   */
  async countCollaborators(manager: EntityManager, projectId: string, ownerId: string): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(
      `SELECT (SELECT count(*) FROM sync.project_members WHERE project_id = $1 AND state = 'active' AND user_id <> $2)
            + (SELECT count(*) FROM sync.project_invitations WHERE project_id = $1 AND state = 'invited') AS count`,
      [projectId, ownerId],
    );
    return Number(row.count);
  }

  /**
   * What a workspace holds against its plan's max_guests_per_workspace besides `email`: its
   * active guests, and the addresses (each once) of open invitations to its projects that are
   * not active members of it (each a guest promised: accepting makes them one).
   */
  async countGuestSeats(manager: EntityManager, workspaceId: string, exceptEmail: string): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(
      `SELECT (SELECT count(*) FROM sync.workspace_members WHERE workspace_id = $1 AND state = 'active' AND role = 'GUEST')
            + (SELECT count(DISTINCT lower(invitation.invitee_email)) FROM sync.project_invitations invitation
                 JOIN sync.projects project ON project.id = invitation.project_id
                WHERE project.workspace_id = $1 AND NOT project.is_deleted AND invitation.state = 'invited' AND lower(invitation.invitee_email) <> lower($2)
                  AND NOT EXISTS (SELECT 1 FROM sync.workspace_members member JOIN sync.users u ON u.id = member.user_id
                                   WHERE member.workspace_id = $1 AND member.state = 'active' AND lower(u.email) = lower(invitation.invitee_email))) AS count`,
      [workspaceId, exceptEmail],
    );
    return Number(row.count);
  }

  /** The name of the project an invitation is to, while the project exists (not deleted). */
  async projectName(manager: EntityManager, projectId: string): Promise<string | undefined> {
    const rows = await manager.query<Array<{ name: string }>>(`SELECT name FROM sync.projects WHERE id = $1 AND NOT is_deleted`, [projectId]);
    return rows[0]?.name;
  }

}
