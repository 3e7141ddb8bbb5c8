import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { notificationPersonOf, type ProjectInvitation, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, requireJoinedRoom, UserProfileRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { actingUser, invitedProjectName, loadInvitationForInvitee, recordInvitationAnswer } from './sharing-args';
import { admitGuest, GuestRepositories } from './workspace-guests';
import { byAddressee, type CommandPolicy } from '@doable/contracts-sync';

const argsSchema = z.object({ invitation_id: idArg, invitation_secret: z.string().min(1).max(200) });

/**
 * accept_invitation / reject_invitation: the receiver answers an invitation addressed to them,
 * proving it with the secret from their share_invitation_sent notification. The receiver is no
 * member yet, so there is no project role to check (their policies are byAddressee()).
 */
@Injectable()
abstract class InvitationAnswerCommand implements CommandHandler {
  abstract readonly type: string;
  abstract readonly policy: CommandPolicy;

  constructor(
    protected readonly invitations: ProjectInvitationsRepository,
    protected readonly profiles: UserProfileRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const invitation = await loadInvitationForInvitee(this.invitations, context, args);
    const projectName = await invitedProjectName(this.invitations, context.tx.manager, invitation);
    const answer = await this.answer(context, invitation);
    // The members see the collaborator state change (invited to active, or gone).
    await recordInvitationAnswer(context, this.invitations, invitation, projectName, answer, notificationPersonOf(await actingUser(this.profiles, context)));
    return {};
  }

  /** This answer's own work; answers the invitation's new state. */
  protected abstract answer(context: CommandContext, invitation: ProjectInvitation): Promise<'accepted' | 'rejected'>;
}

/** accept_invitation: the receiver becomes a member with the invitation's role. */
@Injectable()
export class AcceptInvitationCommand extends InvitationAnswerCommand {
  readonly type = 'accept_invitation';
  /** Accepting a workspace project's invitation makes an outsider the workspace's GUEST. */
  readonly policy = byAddressee({ membership: 'projects_and_workspaces', quantity: ['max_projects_joined', 'max_guests_per_workspace'] });

  constructor(
    invitations: ProjectInvitationsRepository,
    profiles: UserProfileRepository,
    private readonly members: ProjectMembersRepository,
    private readonly projects: ProjectRepository,
    private readonly guests: GuestRepositories,
  ) {
    super(invitations, profiles);
  }

  protected async answer(context: CommandContext, invitation: ProjectInvitation): Promise<'accepted'> {
    // One more project of someone else's for the receiver, unless they are in it already.
    if (!(await this.members.roleOf(context.tx.manager, invitation.project_id, context.userId))) await requireJoinedRoom(this.projects, context);
    // A workspace project: someone outside its workspace comes in as a guest.
    const workspaceId = (await this.projects.ownerOf(context.tx.manager, invitation.project_id))?.workspace_id;
    if (workspaceId) await admitGuest(this.guests, context, workspaceId);
    await this.members.addOrReactivate(context.tx.manager, invitation.project_id, context.userId, invitation.role, context.version);
    // The project row is now shared for every member: each re-reads it.
    await this.projects.update(context.tx.manager, invitation.project_id, {}, context.version);
    return 'accepted';
  }
}

/** reject_invitation: the invitation ends; the sender is told (share_invitation_rejected). */
@Injectable()
export class RejectInvitationCommand extends InvitationAnswerCommand {
  readonly type = 'reject_invitation';
  readonly policy = byAddressee();

  protected answer(): Promise<'rejected'> {
    return Promise.resolve('rejected');
  }
}
