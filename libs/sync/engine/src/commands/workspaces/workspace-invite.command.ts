import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_WORKSPACE_ROLE, grantsFromArgument, GUEST_WORKSPACE_ROLE, inWorkspace, mayGrantWorkspaceRole, mayWithdrawWorkspaceInvitation, SyncEvents, takesGuestSeat, workspaceRolesThat } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { newInvitationSecret, UserProfileRepository, type Workspace, type WorkspaceInvitation, workspaceInvitationAnsweredPayload, workspaceInvitationSentPayload, WorkspaceInvitationsRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { INVITATION_BUDGET, type InvitationBudget, requireInvitationBudget, sentRecently } from '../sharing/invitation-budget';
import { actingUser, emailArg } from '../sharing/sharing-args';
import { loadWorkspace, workspaceRoleArg } from './workspace-args';

/** The repositories the invitation commands share. */
@Injectable()
export class WorkspaceInvitationRepositories {
  constructor(
    readonly workspaces: WorkspaceRepository,
    readonly members: WorkspaceMembersRepository,
    readonly invitations: WorkspaceInvitationsRepository,
    readonly profiles: UserProfileRepository,
  ) {}
}

/** The domain of an address (lower-cased by emailArg). */
export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * workspace_invite {workspace_id, email_list | email, role = MEMBER}: invites addresses to the
 * workspace (ADMINs and MEMBERs: the 'invite' group). The invitee learns of it from the
 * workspaceInvitationSent event (their workspace_invitation_created live notification carries
 * the secret); an address without an account keeps its invitation waiting until one is created
 * (users/user-created.consumer.ts). An address with an open invitation sent within the
 * invitation budget's window is left as it is (nothing sent again); after the window it gets it
 * again under a new secret and the new role. The addresses invited count against the sender's
 * budget, all or none (invitation-budget.ts).
 * Guesses (the spec is silent): the addresses are one decision (one refused address refuses the
 * command); only an ADMIN may invite an ADMIN; restrict_email_domains refuses members and admins
 * from other domains but never guests (what guests are for); both `email` and `email_list`
 * given are taken together.
 */
@Injectable()
export class WorkspaceInviteCommand implements CommandHandler {
  readonly type = 'workspace_invite';
  readonly policy = inWorkspace('invite', { grants: grantsFromArgument('workspace', 'role'), quantity: 'max_guests_per_workspace' });
  private readonly schema = z.object({
    workspace_id: idArg,
    email_list: z.array(emailArg).min(1).max(100).optional(),
    email: emailArg.optional(),
    role: workspaceRoleArg.optional(),
  });

  constructor(
    private readonly repositories: WorkspaceInvitationRepositories,
    @Inject(INVITATION_BUDGET) private readonly budget: InvitationBudget,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const asked = [...new Set([...(args.email_list ?? []), ...(args.email === undefined ? [] : [args.email])])];
    if (asked.length === 0) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: email_list', { argument: 'email_list' });
    const role = args.role ?? DEFAULT_WORKSPACE_ROLE;
    const { workspaces, members, invitations, profiles } = this.repositories;
    const manager = context.tx.manager;
    const workspace = await loadWorkspace(workspaces, context, args.workspace_id, 'workspace_id');
    if (workspace.role === null || !mayGrantWorkspaceRole(workspace.role, role)) throw new DomainError('FORBIDDEN', 'Only an admin may invite admins', { argument: 'role', role: workspace.role });
    if (takesGuestSeat(role) && !workspace.is_guest_allowed) throw new DomainError('FORBIDDEN', 'This workspace does not allow guests', { argument: 'role' });
    // Invitations of one workspace one after another: the open-invitation and guest counts below hold until commit.
    await workspaces.lock(manager, workspace.id);
    const emails: string[] = [];
    for (const email of asked) if (!(await sentRecently(context, this.budget, { table: 'workspace_invitations', scopeColumn: 'workspace_id' }, workspace.id, email))) emails.push(email);
    if (emails.length === 0) return {};
    await requireInvitationBudget(context, this.budget, emails.length);
    const open = new Map<string, WorkspaceInvitation | undefined>();
    for (const email of emails) {
      if (await members.findActiveByEmail(manager, workspace.id, email)) {
        throw new DomainError('INVALID_ARGUMENT_VALUE', 'This user is already a member of the workspace', { argument: 'email', email });
      }
      if (!takesGuestSeat(role) && workspace.restrict_email_domains && workspace.domain_name && emailDomainOf(email) !== workspace.domain_name) {
        throw new DomainError('INVALID_ARGUMENT_VALUE', `Only addresses of ${workspace.domain_name} may join this workspace (or be invited as guests)`, { argument: 'email', email });
      }
      open.set(email, await invitations.findOpenForUpdate(manager, workspace.id, email));
    }
    if (takesGuestSeat(role)) await requireGuestRoom(context, this.repositories, workspace.id, emails.filter((email) => !takesGuestSeat(open.get(email)?.role)).length);
    const inviter = await actingUser(profiles, context);
    for (const email of emails) {
      const inviteeId = (await profiles.findIdByEmail(manager, email)) ?? null;
      const { secret, hash } = newInvitationSecret();
      const invitation = await invitations.upsertOpen(manager, { workspaceId: workspace.id, inviterId: context.userId, inviteeEmail: email, inviteeId, role, secretHash: hash }, context.version);
      await context.tx.emit(SyncEvents.workspaceInvitationSent, workspaceInvitationSentPayload(invitation, workspace.name, inviter, secret));
      if (inviteeId) context.touchUsers(inviteeId);
    }
    await invitationsChanged(context, workspaces, workspace.id);
    return {};
  }
}

/**
 * The workspace's open invitations changed: its admins read them (pending_invitations) in the
 * workspace object, so it is stamped and its members re-read it.
 */
export async function invitationsChanged(context: CommandContext, workspaces: WorkspaceRepository, workspaceId: string): Promise<void> {
  await workspaces.touch(context.tx.manager, workspaceId, context.version);
  context.touchWorkspace(workspaceId);
}

/**
 * Room under the workspace plan's max_guests_per_workspace for `adding` more guests: active
 * guests and open GUEST invitations (each a seat promised) count. Any admin or member may add
 * one, so the count is taken under the workspace's lock key.
 */
export async function requireGuestRoom(context: CommandContext, repositories: Pick<WorkspaceInvitationRepositories, 'members' | 'invitations'>, workspaceId: string, adding: number): Promise<void> {
  if (adding <= 0) return;
  const manager = context.tx.manager;
  await context.plan.requireRoom('max_guests_per_workspace', {
    planOf: context.userId,
    workspace: workspaceId,
    adding,
    lockKey: workspaceId,
    count: async () => (await repositories.members.countWithRole(manager, workspaceId, GUEST_WORKSPACE_ROLE)) + (await repositories.invitations.countOpenGuests(manager, workspaceId)),
  });
}

const invitationRefArgs = z.object({ workspace_id: idArg, email: emailArg });

/** The workspace (the caller's 'invite' right checked) and its open invitation for the address, locked. */
async function loadOpenInvitation(
  repositories: WorkspaceInvitationRepositories,
  context: CommandContext,
  args: z.infer<typeof invitationRefArgs>,
): Promise<{ workspace: Workspace; invitation: WorkspaceInvitation }> {
  const workspace = await loadWorkspace(repositories.workspaces, context, args.workspace_id, 'workspace_id');
  const invitation = await repositories.invitations.findOpenForUpdate(context.tx.manager, workspace.id, args.email);
  if (!invitation) throw new DomainError('INVITATION_NOT_FOUND', 'This address has no open invitation to the workspace', { argument: 'email' });
  return { workspace, invitation };
}

/**
 * workspace_resend_invite {workspace_id, email}: sends the open invitation again under a new
 * secret (the old one stops working), as workspace_invite would after the window; it keeps its role, and whoever
 * resends it becomes its inviter (the one told of the answer: a guess).
 */
@Injectable()
export class WorkspaceResendInviteCommand implements CommandHandler {
  readonly type = 'workspace_resend_invite';
  readonly policy = inWorkspace('invite');

  constructor(
    private readonly repositories: WorkspaceInvitationRepositories,
    @Inject(INVITATION_BUDGET) private readonly budget: InvitationBudget,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(invitationRefArgs, rawArgs);
    const { workspace, invitation } = await loadOpenInvitation(this.repositories, context, args);
    if (workspace.role === null || !mayGrantWorkspaceRole(workspace.role, invitation.role)) throw new DomainError('FORBIDDEN', 'Only an admin may invite admins', { argument: 'email', role: workspace.role });
    // Asked for by name, so sent even within the window; it counts against the sender's budget all the same.
    await requireInvitationBudget(context, this.budget, 1);
    const { secret, hash } = newInvitationSecret();
    const renewed = await this.repositories.invitations.renewSecret(context.tx.manager, invitation.id, context.userId, hash, context.version);
    await context.tx.emit(SyncEvents.workspaceInvitationSent, workspaceInvitationSentPayload(renewed, workspace.name, await actingUser(this.repositories.profiles, context), secret));
    if (renewed.invitee_id) context.touchUsers(renewed.invitee_id);
    return {};
  }
}

/**
 * workspace_delete_invitation {workspace_id, email}: withdraws an open invitation. Its inviter
 * may, and so may the workspace's ADMINs; a MEMBER may not withdraw another's (as
 * delete_invitation for projects). The invitee's notification goes (workspaceInvitationAnswered
 * with answer 'deleted').
 */
@Injectable()
export class WorkspaceDeleteInvitationCommand implements CommandHandler {
  readonly type = 'workspace_delete_invitation';
  readonly policy = inWorkspace('invite');

  constructor(private readonly repositories: WorkspaceInvitationRepositories) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(invitationRefArgs, rawArgs);
    const { workspace, invitation } = await loadOpenInvitation(this.repositories, context, args);
    if (!mayWithdrawWorkspaceInvitation(workspace.role, invitation.inviter_id === context.userId)) {
      throw new DomainError('FORBIDDEN', "Only the invitation's sender or the workspace's admins may delete it", { argument: 'email', role: workspace.role });
    }
    const manager = context.tx.manager;
    await this.repositories.invitations.answer(manager, invitation.id, 'deleted', context.version);
    const adminIds = await this.repositories.members.memberIds(manager, workspace.id, workspaceRolesThat('administer'));
    await context.tx.emit(
      SyncEvents.workspaceInvitationAnswered,
      workspaceInvitationAnsweredPayload(invitation, workspace, await actingUser(this.repositories.profiles, context), 'deleted', adminIds),
    );
    if (invitation.invitee_id) context.touchUsers(invitation.invitee_id);
    await invitationsChanged(context, this.repositories.workspaces, workspace.id);
    return {};
  }
}
