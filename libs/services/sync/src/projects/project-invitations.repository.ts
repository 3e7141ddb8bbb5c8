import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { INVITATION_COLUMNS, type InvitationState, type ProjectInvitation } from './project-invitations.model';

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
export class ProjectInvitationsRepository {
  /**
   * Records an invitation, or re-sends the open one for the same address and project: one open
   * invitation per pair (the unique index), which keeps its id and takes the new inviter, role,
   * message and secret (the old secret stops working). Two members inviting the same address
   * at once meet in the index, not in a duplicate.
   */
  async upsertOpen(manager: EntityManager, invitation: NewInvitation, version: string): Promise<ProjectInvitation> {
    const [row] = await manager.query<ProjectInvitation[]>(
      `INSERT INTO sync.project_invitations (project_id, inviter_id, invitee_email, invitee_id, role, message, secret_hash, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (project_id, invitee_email) WHERE state = 'invited' DO UPDATE
         SET inviter_id = EXCLUDED.inviter_id, invitee_id = EXCLUDED.invitee_id, role = EXCLUDED.role, message = EXCLUDED.message,
             secret_hash = EXCLUDED.secret_hash, version = EXCLUDED.version, created_at = now()
       RETURNING ${INVITATION_COLUMNS}`,
      [invitation.projectId, invitation.inviterId, invitation.inviteeEmail, invitation.inviteeId, invitation.role, invitation.message, invitation.secretHash, version],
    );
    return row;
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

  /** The invitation, locked for the rest of the transaction (its answer is decided once). */
  async findForUpdate(manager: EntityManager, invitationId: string): Promise<ProjectInvitation | undefined> {
    const rows = await manager.query<ProjectInvitation[]>(`SELECT ${INVITATION_COLUMNS} FROM sync.project_invitations WHERE id = $1 FOR UPDATE`, [invitationId]);
    return rows[0];
  }

  /** The open invitation for this address to this project, locked; undefined when there is none. */
  async findOpenForUpdate(manager: EntityManager, projectId: string, email: string): Promise<ProjectInvitation | undefined> {
    const rows = await manager.query<ProjectInvitation[]>(
      `SELECT ${INVITATION_COLUMNS} FROM sync.project_invitations WHERE project_id = $1 AND invitee_email = lower($2) AND state = 'invited' FOR UPDATE`,
      [projectId, email],
    );
    return rows[0];
  }

  /** The name of the project an invitation is to, while the project exists (not deleted). */
  async projectName(manager: EntityManager, projectId: string): Promise<string | undefined> {
    const rows = await manager.query<Array<{ name: string }>>(`SELECT name FROM sync.projects WHERE id = $1 AND NOT is_deleted`, [projectId]);
    return rows[0]?.name;
  }

  /** Ends an open invitation (accepted, rejected or deleted). Answers whether it was still open. */
  async answer(manager: EntityManager, invitationId: string, state: Exclude<InvitationState, 'invited'>, version: string): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE sync.project_invitations SET state = $2, answered_at = now(), version = $3 WHERE id = $1 AND state = 'invited' RETURNING id`,
      [invitationId, state, version],
    );
    return result[1] > 0;
  }

  /**
   * Open invitations to an address no account had when they were made, locked, oldest first,
   * with their projects' names (a project deleted meanwhile has nothing left to offer).
   */
  async waitingFor(manager: EntityManager, email: string): Promise<WaitingInvitation[]> {
    return manager.query<WaitingInvitation[]>(
      `SELECT ${INVITATION_COLUMNS}, (SELECT name FROM sync.projects p WHERE p.id = i.project_id) AS project_name
         FROM sync.project_invitations i
        WHERE invitee_email = lower($1) AND state = 'invited' AND invitee_id IS NULL
          AND project_id IN (SELECT id FROM sync.projects WHERE NOT is_deleted)
        ORDER BY i.id
        FOR UPDATE`,
      [email],
    );
  }

  /** Addresses a waiting invitation to the account now created for it, under a new secret. */
  async attachInvitee(manager: EntityManager, invitationId: string, inviteeId: string, secretHash: string, version: string): Promise<ProjectInvitation> {
    const [rows] = await manager.query<[ProjectInvitation[], number]>(
      `UPDATE sync.project_invitations SET invitee_id = $2, secret_hash = $3, version = $4 WHERE id = $1 RETURNING ${INVITATION_COLUMNS}`,
      [invitationId, inviteeId, secretHash, version],
    );
    return rows[0];
  }
}
