import { isObjectId } from '@doable/contracts-common';
import type { WorkspaceRole } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InvitationState } from '../projects/project-invitations.model';
import { WORKSPACE_FACTS_COLUMNS, WORKSPACE_INVITATION_COLUMNS, type WorkspaceFacts, type WorkspaceInvitation } from './workspace-invitations.model';

export interface NewWorkspaceInvitation {
  readonly workspaceId: string;
  readonly inviterId: string;
  /** Lower-cased by the caller. */
  readonly inviteeEmail: string;
  readonly inviteeId: string | null;
  readonly role: WorkspaceRole;
  readonly secretHash: string;
}

/** A waiting invitation with the name of its workspace (for its event). */
export interface WaitingWorkspaceInvitation extends WorkspaceInvitation {
  workspace_name: string;
}

/** Invitations to workspaces (workspace_invite and its answers). Every method runs on the caller's transaction. */
@Injectable()
export class WorkspaceInvitationsRepository {
  /**
   * Records an invitation, or sends the open one for the same address and workspace again: one
   * open invitation per pair (the unique index workspace_invitations_open), which keeps its id
   * and takes the new inviter, role and secret (the old secret stops working).
   */
  async upsertOpen(manager: EntityManager, invitation: NewWorkspaceInvitation, version: string): Promise<WorkspaceInvitation> {
    const [row] = await manager.query<WorkspaceInvitation[]>(
      `INSERT INTO sync.workspace_invitations (workspace_id, inviter_id, invitee_email, invitee_id, role, secret_hash, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (workspace_id, invitee_email) WHERE state = 'invited' DO UPDATE
         SET inviter_id = EXCLUDED.inviter_id, invitee_id = EXCLUDED.invitee_id, role = EXCLUDED.role,
             secret_hash = EXCLUDED.secret_hash, version = EXCLUDED.version, created_at = now()
       RETURNING ${WORKSPACE_INVITATION_COLUMNS}`,
      [invitation.workspaceId, invitation.inviterId, invitation.inviteeEmail, invitation.inviteeId, invitation.role, invitation.secretHash, version],
    );
    return row;
  }

  /**
   * A new secret for an open invitation (workspace_resend_invite); the old one stops working.
   * Whoever sends it again becomes its inviter: they are the one told of the answer.
   */
  async renewSecret(manager: EntityManager, invitationId: string, inviterId: string, secretHash: string, version: string): Promise<WorkspaceInvitation> {
    const [rows] = await manager.query<[WorkspaceInvitation[], number]>(
      `UPDATE sync.workspace_invitations SET inviter_id = $2, secret_hash = $3, version = $4, created_at = now() WHERE id = $1 RETURNING ${WORKSPACE_INVITATION_COLUMNS}`,
      [invitationId, inviterId, secretHash, version],
    );
    return rows[0];
  }

  /** The open invitation for this address to this workspace, locked; undefined when there is none. */
  async findOpenForUpdate(manager: EntityManager, workspaceId: string, email: string): Promise<WorkspaceInvitation | undefined> {
    const rows = await manager.query<WorkspaceInvitation[]>(
      `SELECT ${WORKSPACE_INVITATION_COLUMNS} FROM sync.workspace_invitations WHERE workspace_id = $1 AND invitee_email = lower($2) AND state = 'invited' FOR UPDATE`,
      [workspaceId, email],
    );
    return rows[0];
  }

  /** The invitation, locked for the rest of the transaction (its answer is decided once). */
  async findForUpdate(manager: EntityManager, invitationId: string): Promise<WorkspaceInvitation | undefined> {
    const rows = await manager.query<WorkspaceInvitation[]>(`SELECT ${WORKSPACE_INVITATION_COLUMNS} FROM sync.workspace_invitations WHERE id = $1 FOR UPDATE`, [invitationId]);
    return rows[0];
  }

  /**
   * The user's own invitation whose secret has this hash, locked (the REST invite_code names an
   * invitation by its secret alone). Open ones first: a resent invitation's old hash is gone.
   */
  async findOwnBySecretHash(manager: EntityManager, userId: string, secretHash: string): Promise<WorkspaceInvitation | undefined> {
    const rows = await manager.query<WorkspaceInvitation[]>(
      `SELECT ${WORKSPACE_INVITATION_COLUMNS} FROM sync.workspace_invitations WHERE invitee_id = $1 AND secret_hash = $2
        ORDER BY state = 'invited' DESC, id DESC LIMIT 1 FOR UPDATE`,
      [userId, secretHash],
    );
    return rows[0];
  }

  /** The emails of a workspace's open invitations, in the order they were made. */
  async openEmails(manager: EntityManager, workspaceId: string): Promise<string[]> {
    const rows = await manager.query<Array<{ invitee_email: string }>>(
      `SELECT invitee_email FROM sync.workspace_invitations WHERE workspace_id = $1 AND state = 'invited' ORDER BY id`,
      [workspaceId],
    );
    return rows.map((row) => row.invitee_email);
  }

  /** Ends every open invitation of a workspace (it is being deleted); answers them as they were, oldest first. */
  async deleteAllOpen(manager: EntityManager, workspaceId: string, version: string): Promise<WorkspaceInvitation[]> {
    const ended = await manager.query<Array<{ id: string }>>(
      `WITH ended AS (UPDATE sync.workspace_invitations SET state = 'deleted', answered_at = now(), version = $2 WHERE workspace_id = $1 AND state = 'invited' RETURNING id)
       SELECT id::text FROM ended ORDER BY id`,
      [workspaceId, version],
    );
    const invitations: WorkspaceInvitation[] = [];
    for (const { id } of ended) {
      const invitation = await this.findForUpdate(manager, id);
      if (invitation) invitations.push(invitation);
    }
    return invitations;
  }

  /** Open GUEST invitations: seats promised to guests, which max_guests_per_workspace counts with the active guests. */
  async countOpenGuests(manager: EntityManager, workspaceId: string): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM sync.workspace_invitations WHERE workspace_id = $1 AND state = 'invited' AND role = 'GUEST'`,
      [workspaceId],
    );
    return row.count;
  }

  /** Ends an open invitation (accepted, rejected or deleted). Answers whether it was still open. */
  async answer(manager: EntityManager, invitationId: string, state: Exclude<InvitationState, 'invited'>, version: string): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE sync.workspace_invitations SET state = $2, answered_at = now(), version = $3 WHERE id = $1 AND state = 'invited' RETURNING id`,
      [invitationId, state, version],
    );
    return result[1] > 0;
  }

  /**
   * Open invitations to an address no account had when they were made, locked, oldest first,
   * with their workspaces' names (a workspace deleted meanwhile has nothing left to offer).
   */
  async waitingFor(manager: EntityManager, email: string): Promise<WaitingWorkspaceInvitation[]> {
    return manager.query<WaitingWorkspaceInvitation[]>(
      `SELECT i.id::text, i.workspace_id::text, i.inviter_id::text, i.invitee_email, i.invitee_id::text, i.role, i.secret_hash, i.state,
              i.created_at, i.answered_at, i.version::text, w.name AS workspace_name
         FROM sync.workspace_invitations i JOIN sync.workspaces w ON w.id = i.workspace_id
        WHERE i.invitee_email = lower($1) AND i.state = 'invited' AND i.invitee_id IS NULL AND NOT w.is_deleted
        ORDER BY i.id
        FOR UPDATE OF i`,
      [email],
    );
  }

  /** Addresses a waiting invitation to the account now created for it, under a new secret. */
  async attachInvitee(manager: EntityManager, invitationId: string, inviteeId: string, secretHash: string, version: string): Promise<WorkspaceInvitation> {
    const [rows] = await manager.query<[WorkspaceInvitation[], number]>(
      `UPDATE sync.workspace_invitations SET invitee_id = $2, secret_hash = $3, version = $4 WHERE id = $1 RETURNING ${WORKSPACE_INVITATION_COLUMNS}`,
      [invitationId, inviteeId, secretHash, version],
    );
    return rows[0];
  }

  /** The workspace's facts (not deleted) whoever asks; `lock` takes its row's lock for the rest of the transaction. */
  async workspaceFacts(manager: EntityManager, workspaceId: string, lock = false): Promise<WorkspaceFacts | undefined> {
    if (!isObjectId(workspaceId)) return undefined;
    const rows = await manager.query<WorkspaceFacts[]>(
      `SELECT ${WORKSPACE_FACTS_COLUMNS} FROM sync.workspaces WHERE id = $1 AND NOT is_deleted${lock ? ' FOR UPDATE' : ''}`,
      [workspaceId],
    );
    return rows[0];
  }
}
