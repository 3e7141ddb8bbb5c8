import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { type Project, ProjectInvitationsRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** What sharing a workspace project needs of its workspace. */
@Injectable()
export class GuestRepositories {
  constructor(
    readonly workspaces: WorkspaceRepository,
    readonly workspaceMembers: WorkspaceMembersRepository,
  ) {}
}

/**
 * share_project of a workspace project to an address that is no active member of the workspace
 * invites a guest: the workspace must allow guests (is_guest_allowed; FORBIDDEN otherwise) and
 * its plan must have room under max_guests_per_workspace, counting its guests and the outsiders
 * it has open project invitations for (MAX_GUESTS_LIMIT_REACHED). Counted under the workspace's
 * lock: every collaborator of every workspace project may invite at once. Re-sending an open
 * invitation takes no new seat (the address is left out of the count).
 */
export async function requireGuestSeat(
  repositories: GuestRepositories,
  invitations: ProjectInvitationsRepository,
  context: CommandContext,
  project: Project,
  email: string,
): Promise<void> {
  const workspaceId = project.workspace_id;
  if (workspaceId === null) return;
  const manager = context.tx.manager;
  if (await repositories.workspaceMembers.findActiveByEmail(manager, workspaceId, email)) return;
  await refuseUnlessGuestsAllowed(repositories, context, workspaceId, 'email');
  await context.plan.requireRoom('max_guests_per_workspace', {
    planOf: project.owner_id,
    workspace: workspaceId,
    lockKey: workspaceId,
    count: () => invitations.countGuestSeats(manager, workspaceId, email),
    extra: { project_id: project.id },
  });
}

/**
 * accept_invitation of a workspace project by someone who is no active member of its workspace:
 * they become its GUEST (they see the workspace, and of its projects only those they were
 * invited to). Refused (FORBIDDEN) if the workspace stopped allowing guests since the
 * invitation; the seat was counted when it was sent.
 */
export async function admitGuest(repositories: GuestRepositories, context: CommandContext, workspaceId: string): Promise<void> {
  const manager = context.tx.manager;
  if (await repositories.workspaceMembers.roleOf(manager, workspaceId, context.userId)) return;
  await refuseUnlessGuestsAllowed(repositories, context, workspaceId, 'invitation_id');
  await repositories.workspaceMembers.addOrReactivate(manager, workspaceId, context.userId, 'GUEST', context.version);
  // The workspace's member counts moved: its row is stamped and every member (the guest too) re-reads it.
  await repositories.workspaces.touch(manager, workspaceId, context.version);
  context.touchWorkspace(workspaceId);
}

async function refuseUnlessGuestsAllowed(repositories: GuestRepositories, context: CommandContext, workspaceId: string, argument: string): Promise<void> {
  if (!(await repositories.workspaces.isGuestAllowed(context.tx.manager, workspaceId))) {
    throw new DomainError('FORBIDDEN', 'This workspace does not allow guests: only its members can be invited to its projects', { argument, workspace_id: workspaceId });
  }
}
