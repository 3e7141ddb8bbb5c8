import type { NotificationPerson } from '@doable/contracts-sync';
import type { UserProfile } from '../users/user-profile.model';
import type { Invitation } from './invitation.model';

/** Who a notification names: a user's id, address and name. */
export type Person = Pick<UserProfile, 'id' | 'email' | 'full_name'> & { readonly image_id?: string | null };

/** A user as live notifications show them: their avatar's image id when the row read carries one. */
export function notificationPersonOf(user: Person): NotificationPerson {
  return { id: user.id, email: user.email, full_name: user.full_name, image_id: user.image_id ?? null };
}

/** Who an invitation's sent event names, whatever it invites to. */
interface InvitationPeople {
  readonly inviter: NotificationPerson;
  readonly inviteeEmail: string;
  readonly inviteeId: string | null;
}

export function inviterAndInvitee(invitation: Invitation, inviter: Person): InvitationPeople {
  return { inviter: notificationPersonOf(inviter), inviteeEmail: invitation.invitee_email, inviteeId: invitation.invitee_id };
}
