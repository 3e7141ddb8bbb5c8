import { Injectable } from '@nestjs/common';
import { isObjectId } from '@doable/contracts-common';
import { administersWorkspace, grantsFromArgument, inWorkspace, SyncEvents, takesGuestSeat } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { notificationPersonOf, type Workspace, type WorkspaceMember } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { actingUser } from '../sharing/sharing-args';
import { loadWorkspace, workspaceRoleArg } from './workspace-args';
import { WorkspaceInvitationRepositories, requireGuestRoom } from './workspace-invite.command';
import { removeFromWorkspace } from './workspace-lifecycle.command';

/**
 * The workspace (the caller's ADMIN right checked), locked so the admin count read next holds to
 * commit (two admins demoting each other at once cannot leave none), and the active member the
 * command is about.
 */
async function loadMember(
  repositories: WorkspaceInvitationRepositories,
  context: CommandContext,
  workspaceId: string | number,
  userId: string | number,
): Promise<{ workspace: Workspace; member: WorkspaceMember }> {
  const loaded = await loadWorkspace(repositories.workspaces, context, workspaceId, 'workspace_id');
  const manager = context.tx.manager;
  await repositories.workspaces.lock(manager, loaded.id);
  const workspace = (await repositories.workspaces.findForMember(manager, context.userId, loaded.id)) ?? loaded;
  const id = String(userId);
  const member = isObjectId(id) ? await repositories.members.findActive(manager, workspace.id, id) : undefined;
  if (!member) throw new DomainError('USER_NOT_FOUND', 'This user is not a member of the workspace', { argument: 'user_id' });
  return { workspace, member };
}

/** Someone must run the workspace: its last ADMIN cannot be demoted or removed. */
function refuseLastAdmin(workspace: Workspace, member: WorkspaceMember): void {
  if (administersWorkspace(member.role) && workspace.admin_count <= 1) {
    throw new DomainError('FORBIDDEN', 'The workspace must keep an admin: make another member an admin first', { argument: 'user_id' });
  }
}

/**
 * workspace_update_user {workspace_id, user_id, role} (ADMIN): gives a member another role. To
 * GUEST takes a place under the workspace plan's max_guests_per_workspace, and needs the
 * workspace to allow guests (a guess, as workspace_invite). The same role again changes nothing.
 * Their project memberships stay as they are (a guess: the workspace role sets what they may do
 * in the workspace, the project roles what they may do in each project).
 */
@Injectable()
export class WorkspaceUpdateUserCommand implements CommandHandler {
  readonly type = 'workspace_update_user';
  readonly policy = inWorkspace('administer', { membership: 'workspaces', grants: grantsFromArgument('workspace', 'role'), quantity: 'max_guests_per_workspace' });
  private readonly schema = z.object({ workspace_id: idArg, user_id: idArg, role: workspaceRoleArg });

  constructor(private readonly repositories: WorkspaceInvitationRepositories) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const { workspace, member } = await loadMember(this.repositories, context, args.workspace_id, args.user_id);
    if (member.role === args.role) return {};
    if (!administersWorkspace(args.role)) refuseLastAdmin(workspace, member);
    if (takesGuestSeat(args.role)) {
      if (!workspace.is_guest_allowed) throw new DomainError('FORBIDDEN', 'This workspace does not allow guests', { argument: 'role' });
      await requireGuestRoom(context, this.repositories, workspace.id, 1);
    }
    const manager = context.tx.manager;
    await this.repositories.members.changeRole(manager, workspace.id, member.user_id, args.role, context.version);
    await this.repositories.workspaces.touch(manager, workspace.id, context.version);
    context.touchWorkspace(workspace.id);
    return {};
  }
}

/**
 * workspace_delete_user {workspace_id, user_id} (ADMIN): removes a member, who loses the
 * workspace's projects at once (removeFromWorkspace) and is told (removed_from_workspace, from
 * the workspaceUserRemoved event). The last admin cannot be removed. An admin removing
 * themselves is leaving (the event's removedBy is then themselves: no one is notified).
 */
@Injectable()
export class WorkspaceDeleteUserCommand implements CommandHandler {
  readonly type = 'workspace_delete_user';
  readonly policy = inWorkspace('administer', { membership: 'workspaces' });
  private readonly schema = z.object({ workspace_id: idArg, user_id: idArg });

  constructor(private readonly repositories: WorkspaceInvitationRepositories) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const { workspace, member } = await loadMember(this.repositories, context, args.workspace_id, args.user_id);
    refuseLastAdmin(workspace, member);
    await removeFromWorkspace(context, this.repositories.workspaces, this.repositories.members, workspace.id, member.user_id);
    await context.tx.emit(SyncEvents.workspaceUserRemoved, {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      userId: member.user_id,
      removedBy: notificationPersonOf(await actingUser(this.repositories.profiles, context)),
    });
    return {};
  }
}
