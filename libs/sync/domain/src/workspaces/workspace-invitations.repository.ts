import { isObjectId } from '@doable/contracts-common';
import type { WorkspaceRole } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InvitationsTable } from '../membership/invitations.table';
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
export class WorkspaceInvitationsRepository extends InvitationsTable<WorkspaceInvitation, WaitingWorkspaceInvitation> {
  constructor() {
    super({ table: 'workspace_invitations', scopeColumn: 'workspace_id', scopeTable: 'workspaces', columns: WORKSPACE_INVITATION_COLUMNS, scopeNameAs: 'workspace_name' });
  }

  /** Records an invitation, or sends the open one again (InvitationsTable.upsert). */
  upsertOpen(manager: EntityManager, invitation: NewWorkspaceInvitation, version: string): Promise<WorkspaceInvitation> {
    const { workspaceId, inviterId, inviteeEmail, inviteeId, role, secretHash } = invitation;
    return this.upsert(manager, { workspace_id: workspaceId, inviter_id: inviterId, invitee_email: inviteeEmail, invitee_id: inviteeId, role, secret_hash: secretHash }, version);
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
