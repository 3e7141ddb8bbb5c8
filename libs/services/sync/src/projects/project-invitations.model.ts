import type { ProjectRole } from '@doable/contracts-sync';

export const INVITATION_STATES = ['invited', 'accepted', 'rejected', 'deleted'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/**
 * An invitation to a project (share_project), as the domain stores it. The secret itself is
 * never stored: only its sha256 (see project-invitations.secret.ts); the clear copy travels once,
 * in the shareInvitationSent event, to the receiver's live notification.
 */
export interface ProjectInvitation {
  id: string;
  project_id: string;
  inviter_id: string;
  /** Lower-cased. */
  invitee_email: string;
  /** Null while no account has the address. */
  invitee_id: string | null;
  role: Exclude<ProjectRole, 'CREATOR'>;
  message: string;
  secret_hash: string;
  state: InvitationState;
  created_at: Date;
  answered_at: Date | null;
  version: string;
}

export const INVITATION_COLUMNS = `id::text, project_id::text, inviter_id::text, invitee_email, invitee_id::text, role, message, secret_hash, state,
  created_at, answered_at, version::text`;
