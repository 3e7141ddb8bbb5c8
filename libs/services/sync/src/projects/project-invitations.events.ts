import type { NotificationPerson, ShareInvitationSent } from '@doable/contracts-sync';
import type { UserProfile } from '../users/user-profile.model';
import type { ProjectInvitation } from './project-invitations.model';

/** A user as live notifications show them (no avatars are stored yet). */
export function notificationPersonOf(user: Pick<UserProfile, 'id' | 'email' | 'full_name'>): NotificationPerson {
  return { id: user.id, email: user.email, full_name: user.full_name, image_id: null };
}

/**
 * The shareInvitationSent event of an invitation: share_project's, and the one offered to an
 * account created for its address. The secret is in the clear here and nowhere else.
 */
export function invitationSentPayload(invitation: ProjectInvitation, projectName: string, inviter: Pick<UserProfile, 'id' | 'email' | 'full_name'>, secret: string): ShareInvitationSent {
  return {
    invitationId: invitation.id,
    invitationSecret: secret,
    projectId: invitation.project_id,
    projectName,
    inviter: notificationPersonOf(inviter),
    inviteeEmail: invitation.invitee_email,
    inviteeId: invitation.invitee_id,
    role: invitation.role,
    message: invitation.message,
  };
}
