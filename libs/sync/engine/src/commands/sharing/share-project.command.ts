import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_COLLABORATOR_ROLE, grantsFromArgument, inProject, SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { invitationSentPayload, limitReached, newInvitationSecret, notificationPersonOf, type Project, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, type UserProfile, UserProfileRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject } from '../projects/project-access';
import { actingUser, collaboratorRoleArg, emailArg, requireGrantable } from './sharing-args';
import { GuestRepositories, requireGuestSeat } from './workspace-guests';
import { recordObjectEvents } from '../../object-events';
import { INVITATION_BUDGET, type InvitationBudget, requireInvitationBudget, sentRecently } from './invitation-budget';
import { projectChange } from '../projects/project-events';

const argsSchema = z.object({
  project_id: idArg,
  email: emailArg,
  role: collaboratorRoleArg.optional(),
  message: z.string().max(5_000).optional(),
});

/**
 * share_project: invites an address to a project. The receiver learns of it from the
 * shareInvitationSent event (the notifications service makes it their share_invitation_sent
 * live notification, secret included); an address without an account keeps the invitation
 * waiting until one is created (users/user-created.consumer.ts offers it then). Inviting an
 * address with an open invitation sent within the invitation budget's window changes nothing
 * and sends nothing (ok: its secret and mail stand); after the window, it is sent again under a
 * new secret. Each invitation sent counts against the sender's budget (invitation-budget.ts).
 * A new invitation takes a seat of the project's max_collaborators (its owner's plan, whoever
 * invites); over it, the command is refused and all it leaves is the shareInvitationBlocked
 * event, which tells the inviter and the owner (CommandContext.emitOnRefusal).
 */
@Injectable()
export class ShareProjectCommand implements CommandHandler {
  readonly type = 'share_project';
  readonly policy = inProject('invite', { grants: grantsFromArgument('project', 'role'), quantity: ['max_collaborators', 'max_guests_per_workspace'] });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly members: ProjectMembersRepository,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly profiles: UserProfileRepository,
    private readonly guests: GuestRepositories,
    @Inject(INVITATION_BUDGET) private readonly budget: InvitationBudget,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const manager = context.tx.manager;
    // Checks the caller's 'invite' right (requireAccess).
    const project = await loadProject(this.projects, context, args.project_id, 'project_id');
    if (project.inbox_project) throw new DomainError('FORBIDDEN', 'The Inbox project cannot be shared', { argument: 'project_id' });
    // Nobody grants more than they hold (a READ_WRITE collaborator cannot make an ADMIN).
    const role = args.role ?? DEFAULT_COLLABORATOR_ROLE;
    requireGrantable(await context.requireAccess(project.id), role);
    const inviter = await actingUser(this.profiles, context);
    if (inviter.email.toLowerCase() === args.email) throw new DomainError('INVALID_ARGUMENT_VALUE', 'You cannot invite yourself', { argument: 'email' });
    if (await this.members.findActiveByEmail(manager, project.id, args.email)) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'This user is already a collaborator of the project', { argument: 'email' });
    }
    if (await sentRecently(context, this.budget, { table: 'project_invitations', scopeColumn: 'project_id' }, project.id, args.email)) return {};
    await requireInvitationBudget(context, this.budget, 1);
    await this.requireSeat(context, project, inviter, args.email);
    // An outsider of a workspace project's workspace is invited as its guest.
    await requireGuestSeat(this.guests, this.invitations, context, project, args.email);
    const inviteeId = (await this.profiles.findIdByEmail(manager, args.email)) ?? null;
    const { secret, hash } = newInvitationSecret();
    const invitation = await this.invitations.upsertOpen(
      manager,
      {
        projectId: project.id,
        inviterId: context.userId,
        inviteeEmail: args.email,
        inviteeId,
        role,
        message: args.message ?? '',
        secretHash: hash,
      },
      context.version,
    );
    await context.tx.emit(SyncEvents.shareInvitationSent, invitationSentPayload(invitation, project.name, inviter, secret));
    await recordObjectEvents(context, [projectChange(project, 'shared')]);
    // Members see the invited collaborator state; the receiver's sync picks it up too.
    context.touch(project.id);
    if (inviteeId) context.touchUsers(inviteeId);
    return {};
  }

  /**
   * Room for one more collaborator under the owner's plan (a workspace project: its workspace's). Every member with the right may
   * invite, so the count is taken under the project's lock (two members cannot both take the
   * last seat). Sending an open invitation again takes no new seat: asked only when full.
   */
  private async requireSeat(context: CommandContext, project: Project, inviter: UserProfile, email: string): Promise<void> {
    const manager = context.tx.manager;
    const workspace = project.workspace_id ?? undefined;
    const room = await context.plan.room('max_collaborators', {
      planOf: project.owner_id,
      workspace,
      count: () => this.invitations.countCollaborators(manager, project.id, project.owner_id),
      lockKey: project.id,
    });
    if (room > 0 || (await this.invitations.findOpenForUpdate(manager, project.id, email))) return;
    const plan = workspace === undefined ? await context.plan.planOf(project.owner_id) : await context.plan.workspacePlanOf(workspace);
    context.emitOnRefusal(SyncEvents.shareInvitationBlocked, {
      projectId: project.id,
      projectName: project.name,
      inviter: notificationPersonOf(inviter),
      inviteeEmail: email,
      ownerId: project.owner_id,
      maxCount: plan.max_collaborators,
    });
    throw limitReached('max_collaborators', plan, workspace === undefined ? { project_id: project.id } : { workspace_id: workspace, project_id: project.id });
  }
}
