import type { WorkspacePlanType } from '@doable/contracts-plans';
import type { WorkspaceRole } from '@doable/contracts-sync';
import { INVITATION_COLUMNS, type Invitation } from '../membership/invitation.model';

/** An invitation to a workspace (workspace_invite), as the domain stores it (see Invitation). */
export interface WorkspaceInvitation extends Invitation {
  workspace_id: string;
  role: WorkspaceRole;
}

export const WORKSPACE_INVITATION_COLUMNS = `${INVITATION_COLUMNS}, workspace_id::text, role`;

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
