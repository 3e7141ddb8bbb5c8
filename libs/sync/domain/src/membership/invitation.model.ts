export const INVITATION_STATES = ['invited', 'accepted', 'rejected', 'deleted'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/**
 * What every invitation holds, to a project (share_project) or to a workspace
 * (workspace_invite): the two are one model over two tables. The secret itself is never stored:
 * only its sha256 (projects/project-invitations.secret.ts); the clear copy travels once, in the
 * invitation's event, to the receiver's live notification.
 */
export interface Invitation {
  id: string;
  inviter_id: string;
  /** Lower-cased. */
  invitee_email: string;
  /** Null while no account has the address. */
  invitee_id: string | null;
  secret_hash: string;
  state: InvitationState;
  created_at: Date;
  answered_at: Date | null;
  version: string;
}

/** The columns of Invitation as every invitation table reads them (ids as text). */
export const INVITATION_COLUMNS = `id::text, inviter_id::text, invitee_email, invitee_id::text, secret_hash, state, created_at, answered_at, version::text`;
