import type { WorkspaceInvitationAnswered, WorkspaceInvitationSent } from '@doable/contracts-sync';
import { inviterAndInvitee, notificationPersonOf, type Person } from '../membership/invitation-events';
import type { WorkspaceFacts, WorkspaceInvitation } from './workspace-invitations.model';

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
    ...inviterAndInvitee(invitation, inviter),
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
