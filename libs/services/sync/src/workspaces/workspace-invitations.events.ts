import type { WorkspaceInvitationAnswered, WorkspaceInvitationSent } from '@doable/contracts-sync';
import { notificationPersonOf } from '../projects/project-invitations.events';
import type { UserProfile } from '../users/user-profile.model';
import type { WorkspaceFacts, WorkspaceInvitation } from './workspace-invitations.model';

type Person = Pick<UserProfile, 'id' | 'email' | 'full_name'>;

/**
 * The workspaceInvitationSent event of an invitation: workspace_invite's, workspace_resend_invite's
 * and the one offered to an account created for its address. The secret is in the clear here and
 * nowhere else.
 */
export function workspaceInvitationSentPayload(invitation: WorkspaceInvitation, workspaceName: string, inviter: Person, secret: string): WorkspaceInvitationSent {
  return {
    invitationId: invitation.id,
    invitationSecret: secret,
    workspaceId: invitation.workspace_id,
    workspaceName,
    inviter: notificationPersonOf(inviter),
    inviteeEmail: invitation.invitee_email,
    inviteeId: invitation.invitee_id,
    role: invitation.role,
  };
}

/** The workspaceInvitationAnswered event of an invitation that ended; `adminIds` are the admins after the answer. */
export function workspaceInvitationAnsweredPayload(
  invitation: WorkspaceInvitation,
  workspace: WorkspaceFacts,
  actor: Person,
  answer: WorkspaceInvitationAnswered['answer'],
  adminIds: string[],
): WorkspaceInvitationAnswered {
  return {
    invitationId: invitation.id,
    workspaceId: invitation.workspace_id,
    workspaceName: workspace.name,
    inviterId: invitation.inviter_id,
    inviteeEmail: invitation.invitee_email,
    actor: notificationPersonOf(actor),
    answer,
    adminIds,
    planType: workspace.plan_type,
  };
}
