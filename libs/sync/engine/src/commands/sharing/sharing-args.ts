import { isObjectId } from '@doable/contracts-common';
import { COLLABORATOR_ROLES, grantableRoles, mayGrantRole, type ProjectRole, type ShareInvitationAnswered, SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { invitationSecretMatches, notificationPersonOf, type ProjectInvitation, type ProjectInvitationsRepository, type UserProfile, type UserProfileRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** The roles a collaborator may be given: every one but CREATOR (a project has one, its owner). */
export const collaboratorRoleArg = z.enum(COLLABORATOR_ROLES);

/** Refuses a role above the granter's own (FORBIDDEN on `role`, naming the roles they may give). */
export function requireGrantable(granter: ProjectRole, role: ProjectRole): void {
  if (mayGrantRole(granter, role)) return;
  throw new DomainError('FORBIDDEN', `Your role in this project (${granter}) cannot give the role ${role}`, { argument: 'role', role: granter, grantable_roles: grantableRoles(granter) });
}

/** An address as accounts store it (auth's sign-up rule): trimmed, lower-cased, valid. */
export const emailArg = z.string().trim().toLowerCase().email().max(254);

/** The acting user's profile (names and address for events); it exists, its row is locked by the request. */
export async function actingUser(profiles: UserProfileRepository, context: CommandContext): Promise<UserProfile> {
  const profile = await profiles.find(context.tx.manager, context.userId);
  if (!profile) throw new Error(`user ${context.userId} runs commands but has no profile`);
  return profile;
}

/**
 * The invitation a receiver answers, locked. Not found, addressed to someone else, or the wrong
 * secret: one refusal for all three, so a stranger learns nothing of which invitations exist.
 * Only then, to its receiver, whether it is still open.
 */
export async function loadInvitationForInvitee(
  invitations: ProjectInvitationsRepository,
  context: CommandContext,
  args: { invitation_id: string | number; invitation_secret: string },
): Promise<ProjectInvitation> {
  const id = String(args.invitation_id);
  const invitation = isObjectId(id) ? await invitations.findForUpdate(context.tx.manager, id) : undefined;
  if (!invitation || invitation.invitee_id !== context.userId || !invitationSecretMatches(args.invitation_secret, invitation.secret_hash)) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid invitation', { argument: 'invitation_secret' });
  }
  refuseAnswered(invitation);
  return invitation;
}

/** An invitation answered (or withdrawn) already cannot change again. */
export function refuseAnswered(invitation: ProjectInvitation): void {
  if (invitation.state !== 'invited') {
    throw new DomainError('INVALID_ARGUMENT_VALUE', `The invitation was already ${invitation.state}`, { argument: 'invitation_id', state: invitation.state });
  }
}

/** Records that an invitation ended (accepted, rejected, deleted), the caller its actor. */
export async function emitInvitationAnswered(
  profiles: UserProfileRepository,
  context: CommandContext,
  invitation: ProjectInvitation,
  projectName: string,
  answer: ShareInvitationAnswered['answer'],
): Promise<void> {
  await context.tx.emit(SyncEvents.shareInvitationAnswered, {
    invitationId: invitation.id,
    projectId: invitation.project_id,
    projectName,
    inviterId: invitation.inviter_id,
    inviteeEmail: invitation.invitee_email,
    inviteeId: invitation.invitee_id,
    actor: notificationPersonOf(await actingUser(profiles, context)),
    answer,
  });
}
