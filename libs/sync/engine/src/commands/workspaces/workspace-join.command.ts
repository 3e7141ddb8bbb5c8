import { Injectable } from '@nestjs/common';
import { byAddressee, SyncEvents, workspaceRolesThat } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { notificationPersonOf, type WorkspaceFacts } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { actingUser } from '../sharing/sharing-args';
import { emailDomainOf, WorkspaceInvitationRepositories } from './workspace-invite.command';

/**
 * workspace_join {invite_code | workspace_id}: the caller joins a workspace as a MEMBER without
 * an invitation, by its join link's code (while is_link_sharing_enabled) or, naming the
 * workspace, because their address is of its domain_name and domain_discovery is on. A member
 * already is left as they are (ok, nothing changes, no event). The caller is no member, so this
 * declares byAddressee(): no workspace role is read.
 * Guesses: a code that is unknown or whose link sharing is off is one refusal
 * (INVALID_ARGUMENT_VALUE), and a workspace the caller may not join by domain is
 * WORKSPACE_NOT_FOUND, so neither tells a stranger what exists; restrict_email_domains holds for
 * the join link too (its point is that only the domain's people become members).
 */
@Injectable()
export class WorkspaceJoinCommand implements CommandHandler {
  readonly type = 'workspace_join';
  /** Run by someone not yet a member: the join link or the address's domain is the right. */
  readonly policy = byAddressee({ membership: 'workspaces' });
  private readonly schema = z.object({ invite_code: z.string().min(1).max(200).optional(), workspace_id: idArg.optional() });

  constructor(private readonly repositories: WorkspaceInvitationRepositories) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    if ((args.invite_code === undefined) === (args.workspace_id === undefined)) {
      throw new DomainError(args.invite_code === undefined ? 'ARGUMENT_MISSING' : 'INVALID_ARGUMENT_VALUE', 'Give exactly one of invite_code and workspace_id', { argument: 'invite_code' });
    }
    const user = await actingUser(this.repositories.profiles, context);
    // Only a proven address is of its domain (issue #44): anyone could sign up with boss@corp.example.
    const domain = (await this.repositories.profiles.emailVerified(context.tx.manager, context.userId)) ? emailDomainOf(user.email) : '';
    const via = args.invite_code === undefined ? 'domain' : 'invite_code';
    const workspace = args.invite_code === undefined ? await this.byDomain(context, String(args.workspace_id), domain) : await this.byCode(context, args.invite_code, domain);
    const manager = context.tx.manager;
    if (!(await this.repositories.members.addOrReactivate(manager, workspace.id, context.userId, 'MEMBER', context.version))) return {};
    await this.repositories.workspaces.touch(manager, workspace.id, context.version);
    context.touchWorkspace(workspace.id);
    await context.tx.emit(SyncEvents.workspaceUserJoined, {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      user: notificationPersonOf(user),
      role: 'MEMBER',
      via,
      adminIds: await this.repositories.members.memberIds(manager, workspace.id, workspaceRolesThat('administer')),
    });
    return {};
  }

  private async byCode(context: CommandContext, code: string, domain: string): Promise<WorkspaceFacts> {
    const manager = context.tx.manager;
    const id = await this.repositories.workspaces.findIdByInviteCode(manager, code);
    const workspace = id === undefined ? undefined : await this.repositories.invitations.workspaceFacts(manager, id, true);
    if (!workspace || !workspace.is_link_sharing_enabled) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid invite code', { argument: 'invite_code' });
    if (workspace.restrict_email_domains && workspace.domain_name && domain !== workspace.domain_name && !(await this.isMember(context, workspace.id))) {
      throw new DomainError('FORBIDDEN', `Only addresses of ${workspace.domain_name} may join this workspace`, { argument: 'invite_code' });
    }
    return workspace;
  }

  private async byDomain(context: CommandContext, workspaceId: string, domain: string): Promise<WorkspaceFacts> {
    const workspace = await this.repositories.invitations.workspaceFacts(context.tx.manager, workspaceId, true);
    if (!workspace || !workspace.domain_discovery || !workspace.domain_name || workspace.domain_name !== domain) {
      // A member may "join" again (nothing changes); anyone else learns nothing.
      if (workspace && (await this.isMember(context, workspace.id))) return workspace;
      throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { argument: 'workspace_id' });
    }
    return workspace;
  }

  private async isMember(context: CommandContext, workspaceId: string): Promise<boolean> {
    return (await this.repositories.members.roleOf(context.tx.manager, workspaceId, context.userId)) !== undefined;
  }
}
