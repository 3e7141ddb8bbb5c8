import type { CommandArgs, ProjectInvitation, SyncData } from '../api/sync-types';

/** How a pending invitation is cancelled: by its id (its sender or a manager), or by address (managers). */
export type InvitationCancel = { type: 'delete_invitation'; args: CommandArgs['delete_invitation'] } | { type: 'delete_collaborator'; args: CommandArgs['delete_collaborator'] };

/** One line of "Invited, not yet answered": whom, and how this person may cancel it (null: they may not). */
export interface PendingInvitation {
  key: string;
  email: string | undefined;
  /** The invitee's name when they have an account the app knows. */
  name: string | undefined;
  cancel: InvitationCancel | null;
}

/** What the signed-in person may do about the project's invitations (roles.ts projectRights). */
export interface InvitationRights {
  /** Invite (and cancel what they sent). */
  share: boolean;
  /** Manage the project: cancel anyone's invitation. */
  manage: boolean;
}

/**
 * The project's invitations not yet answered. `listed` is the server's list (every address, one
 * with no account too), once read: each is cancelled by its id with delete_invitation, which its
 * sender or a manager may run. The synced collaborator states still `invited` that the list does
 * not name (it was not read yet, the app is offline, or it is a moment behind the sync) are shown
 * too, cancelled by address with delete_collaborator, which only managers may run. The server
 * decides either way; this only keeps the app from offering what it would refuse.
 */
export function pendingInvitations(data: SyncData, projectId: string, listed: readonly ProjectInvitation[] | undefined, rights: InvitationRights): PendingInvitation[] {
  const me = data.user?.id;
  const byEmail = new Map<string, { id: string; full_name?: string }>();
  for (const person of data.collaborators.values()) if (person.email) byEmail.set(person.email.toLowerCase(), person);
  const lines: PendingInvitation[] = [];
  const named = new Set<string>();
  for (const invitation of listed ?? []) {
    if (invitation.project_id !== projectId) continue;
    const email = invitation.user_email;
    named.add(email.toLowerCase());
    const mayCancel = rights.share && (rights.manage || invitation.inviter_id === me);
    lines.push({
      key: `invitation:${invitation.id}`,
      email,
      name: byEmail.get(email.toLowerCase())?.full_name,
      cancel: mayCancel ? { type: 'delete_invitation', args: { invitation_id: invitation.id } } : null,
    });
  }
  for (const state of data.collaborator_states.values()) {
    if (state.project_id !== projectId || state.state !== 'invited' || state.is_deleted) continue;
    const person = data.collaborators.get(state.user_id);
    const email = person?.email;
    if (email && named.has(email.toLowerCase())) continue;
    lines.push({
      key: `person:${state.user_id}`,
      email,
      name: person?.full_name,
      cancel: rights.manage && email ? { type: 'delete_collaborator', args: { project_id: projectId, email } } : null,
    });
  }
  return lines;
}
