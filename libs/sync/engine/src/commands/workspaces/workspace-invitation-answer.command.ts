import { Injectable } from '@nestjs/common';
import { isObjectId } from '@doable/contracts-common';
import { hashToken } from '@doable/contracts-auth';
import { byAddressee, type CommandPolicy, SyncEvents, workspaceRolesThat } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { invitationSecretMatches, type WorkspaceFacts, type WorkspaceInvitation, workspaceInvitationAnsweredPayload } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { actingUser } from '../sharing/sharing-args';
import { invitationsChanged, WorkspaceInvitationRepositories } from './workspace-invite.command';

const argsSchema = z.object({ invitation_id: idArg.optional(), invitation_secret: z.string().min(1).max(200) });

/**
 * biz_accept_invitation / biz_reject_invitation {invitation_id?, invitation_secret}: the invitee
 * answers an invitation addressed to them, proving it with the secret of their
 * workspace_invitation_created notification. Without `invitation_id` the secret alone (the REST
 * invite_code) finds it among the caller's own invitations. The invitee is no member yet, so no
 * workspace role is checked (their policies are byAddressee()).
 */
@Injectable()
abstract class WorkspaceInvitationAnswerCommand implements CommandHandler {
  abstract readonly type: string;
  abstract readonly policy: CommandPolicy;

  constructor(protected readonly repositories: WorkspaceInvitationRepositories) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const invitation = await this.loadForInvitee(context, args);
    const manager = context.tx.manager;
    // Locked: membership counts change under it as workspace_leave's and the invitation commands' do.
    const workspace = await this.repositories.invitations.workspaceFacts(manager, invitation.workspace_id, true);
    // Deleted after the invitation was sent: there is nothing left to join.
    if (!workspace) throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { argument: 'invitation_id' });
    const answer = await this.answer(context, invitation, workspace);
    await this.repositories.invitations.answer(manager, invitation.id, answer, context.version);
    const adminIds = await this.repositories.members.memberIds(manager, workspace.id, workspaceRolesThat('administer'));
    await context.tx.emit(
      SyncEvents.workspaceInvitationAnswered,
      workspaceInvitationAnsweredPayload(invitation, workspace, await actingUser(this.repositories.profiles, context), answer, adminIds),
    );
    return {};
  }

  /** This answer's own work; answers the invitation's new state. */
  protected abstract answer(context: CommandContext, invitation: WorkspaceInvitation, workspace: WorkspaceFacts): Promise<'accepted' | 'rejected'>;

  /**
   * The invitation, locked. Not found, addressed to someone else, or the wrong secret: one
   * refusal for all three, so a stranger learns nothing of which invitations exist. Only then,
   * to its invitee, whether it is still open.
   */
  private async loadForInvitee(context: CommandContext, args: z.infer<typeof argsSchema>): Promise<WorkspaceInvitation> {
    const { invitations } = this.repositories;
    const manager = context.tx.manager;
    let invitation: WorkspaceInvitation | undefined;
    if (args.invitation_id === undefined) {
      invitation = await invitations.findOwnBySecretHash(manager, context.userId, hashToken(args.invitation_secret));
    } else {
      const id = String(args.invitation_id);
      invitation = isObjectId(id) ? await invitations.findForUpdate(manager, id) : undefined;
    }
    if (!invitation || invitation.invitee_id !== context.userId || !invitationSecretMatches(args.invitation_secret, invitation.secret_hash)) {
      throw new DomainError('INVITATION_NOT_FOUND', 'Invalid invitation', { argument: 'invitation_secret' });
    }
    if (invitation.state !== 'invited') {
      throw new DomainError('INVALID_ARGUMENT_VALUE', `The invitation was already ${invitation.state}`, { argument: 'invitation_id', state: invitation.state });
    }
    return invitation;
  }
}

/**
 * biz_accept_invitation: the invitee becomes an active member with the invitation's role (a
 * GUEST's seat was counted when it was invited). Someone already a member keeps their role (a
 * guess: an invitation never demotes). Every member's next sync sees the new member.
 */
@Injectable()
export class WorkspaceAcceptInvitationCommand extends WorkspaceInvitationAnswerCommand {
  readonly type = 'biz_accept_invitation';
  readonly policy = byAddressee({ membership: 'workspaces' });

  protected async answer(context: CommandContext, invitation: WorkspaceInvitation, workspace: WorkspaceFacts): Promise<'accepted'> {
    await this.repositories.members.addOrReactivate(context.tx.manager, workspace.id, context.userId, invitation.role, context.version);
    // The counts and pending invitations the workspace object carries moved: every member re-reads it.
    await invitationsChanged(context, this.repositories.workspaces, workspace.id);
    return 'accepted';
  }
}

/** biz_reject_invitation: the invitation ends; the inviter is told (workspace_invitation_rejected). */
@Injectable()
export class WorkspaceRejectInvitationCommand extends WorkspaceInvitationAnswerCommand {
  readonly type = 'biz_reject_invitation';
  readonly policy = byAddressee();

  protected async answer(context: CommandContext, _invitation: WorkspaceInvitation, workspace: WorkspaceFacts): Promise<'rejected'> {
    // The admins' pending_invitations lose the address.
    await invitationsChanged(context, this.repositories.workspaces, workspace.id);
    return 'rejected';
  }
}
