import { isObjectId } from '@doable/contracts-common';
import { COLLABORATOR_ROLES, grantableRoles, mayGrantRole, type NotificationPerson, type ProjectRole, type ShareInvitationAnswered, SyncEvents } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
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

/** What an invitation's end is written in: a transaction, its change's version, and the projects the change shows in. */
export interface InvitationChange {
  readonly tx: Tx;
  readonly version: string;
  readonly touch: (...projectIds: string[]) => void;
}

/** The event that an invitation ended (accepted, rejected, deleted), by `actor`. */
export function invitationAnsweredPayload(invitation: ProjectInvitation, projectName: string, answer: ShareInvitationAnswered['answer'], actor: NotificationPerson): ShareInvitationAnswered {
  return {
    invitationId: invitation.id,
    projectId: invitation.project_id,
    projectName,
    inviterId: invitation.inviter_id,
    inviteeEmail: invitation.invitee_email,
    inviteeId: invitation.invitee_id,
    actor,
    answer,
  };
}

/**
 * The project an invitation is to, by name, while it can still be answered: a project deleted
 * after the invitation was sent has nothing left to join (PROJECT_NOT_FOUND).
 */
export async function invitedProjectName(invitations: ProjectInvitationsRepository, manager: Tx['manager'], invitation: ProjectInvitation): Promise<string> {
  const projectName = await invitations.projectName(manager, invitation.project_id);
  if (projectName === undefined) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'invitation_id' });
  return projectName;
}

/**
 * The receiver's answer to an open invitation (locked by the caller), whoever the receiver is:
 * an account answering with accept_invitation / reject_invitation, or an address without one
 * declining from its mail (MailedInvitations). The invitation takes its new state; the answered
 * event follows in the same transaction (the notifications service tells the sender from it);
 * the project's members see the collaborator state change.
 */
export async function recordInvitationAnswer(
  change: InvitationChange,
  invitations: ProjectInvitationsRepository,
  invitation: ProjectInvitation,
  projectName: string,
  answer: 'accepted' | 'rejected',
  actor: NotificationPerson,
): Promise<void> {
  await invitations.answer(change.tx.manager, invitation.id, answer, change.version);
  await change.tx.emit(SyncEvents.shareInvitationAnswered, invitationAnsweredPayload(invitation, projectName, answer, actor));
  change.touch(invitation.project_id);
}

/** Records that an invitation ended (accepted, rejected, deleted), the caller its actor. */
export async function emitInvitationAnswered(
  profiles: UserProfileRepository,
  context: CommandContext,
  invitation: ProjectInvitation,
  projectName: string,
  answer: ShareInvitationAnswered['answer'],
): Promise<void> {
  await context.tx.emit(SyncEvents.shareInvitationAnswered, invitationAnsweredPayload(invitation, projectName, answer, notificationPersonOf(await actingUser(profiles, context))));
}
