import type { WorkspacePlanType } from '@doable/contracts-plans';
import type { WorkspaceRole } from '@doable/contracts-sync';
import type { InvitationState } from '../projects/project-invitations.model';

/**
 * An invitation to a workspace (workspace_invite), as the domain stores it. As for project
 * invitations only the secret's sha256 is kept (projects/project-invitations.secret.ts); the
 * clear copy travels once, in the workspaceInvitationSent event, to the invitee's
 * workspace_invitation_created live notification.
 */
export interface WorkspaceInvitation {
  id: string;
  workspace_id: string;
  inviter_id: string;
  /** Lower-cased. */
  invitee_email: string;
  /** Null while no account has the address. */
  invitee_id: string | null;
  role: WorkspaceRole;
  secret_hash: string;
  state: InvitationState;
  created_at: Date;
  answered_at: Date | null;
  version: string;
}

export const WORKSPACE_INVITATION_COLUMNS = `id::text, workspace_id::text, inviter_id::text, invitee_email, invitee_id::text, role, secret_hash, state,
  created_at, answered_at, version::text`;

/**
 * What the invitation and joining commands need of a workspace whoever asks (an invitee or a
 * user joining is no member yet, so WorkspaceRepository.findForMember cannot answer them).
 */
export interface WorkspaceFacts {
  id: string;
  name: string;
  plan_type: WorkspacePlanType;
  is_link_sharing_enabled: boolean;
  is_guest_allowed: boolean;
  domain_name: string | null;
  domain_discovery: boolean;
  restrict_email_domains: boolean;
}

export const WORKSPACE_FACTS_COLUMNS = `id::text, name, plan_type, is_link_sharing_enabled, is_guest_allowed, domain_name, domain_discovery, restrict_email_domains`;
