import type { ShareInvitationSent } from '@doable/contracts-sync';
import { inviterAndInvitee, type Person } from '../membership/invitation-events';
import type { ProjectInvitation } from './project-invitations.model';

/**
 * The shareInvitationSent event of an invitation: share_project's, and the one offered to an
 * account created for its address. The secret is in the clear here and nowhere else.
 */
export function invitationSentPayload(invitation: ProjectInvitation, projectName: string, inviter: Person, secret: string): ShareInvitationSent {
  return {
    invitationId: invitation.id,
    invitationSecret: secret,
    projectId: invitation.project_id,
    projectName,
    ...inviterAndInvitee(invitation, inviter),
    role: invitation.role,
    message: invitation.message,
  };
}
