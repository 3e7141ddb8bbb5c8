import { DEFAULT_COLLABORATOR_ROLE, SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import type { ProjectMembersRepository } from '../../../projects/project-members.repository';
import { invitationSentPayload } from '../../../projects/project-invitations.events';
import type { ProjectInvitationsRepository } from '../../../projects/project-invitations.repository';
import { newInvitationSecret } from '../../../projects/project-invitations.secret';
import type { ProjectRepository } from '../../../projects/project.repository';
import type { UserProfileRepository } from '../../../users/user-profile.repository';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { idArg } from '../items/item-args';
import { loadProject } from '../projects/project-access';
import { actingUser, collaboratorRoleArg, emailArg } from './sharing-args';

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
 * address with an open invitation sends that invitation again under a new secret.
 */
export class ShareProjectCommand implements CommandHandler {
  readonly type = 'share_project';

  constructor(
    private readonly projects: ProjectRepository,
    private readonly members: ProjectMembersRepository,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly profiles: UserProfileRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const manager = context.tx.manager;
    // Checks the caller's 'invite' right (requireAccess).
    const project = await loadProject(this.projects, context, args.project_id, 'project_id');
    if (project.inbox_project) throw new DomainError('FORBIDDEN', 'The Inbox project cannot be shared', { argument: 'project_id' });
    const inviter = await actingUser(this.profiles, context);
    if (inviter.email.toLowerCase() === args.email) throw new DomainError('INVALID_ARGUMENT_VALUE', 'You cannot invite yourself', { argument: 'email' });
    if (await this.members.findActiveByEmail(manager, project.id, args.email)) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'This user is already a collaborator of the project', { argument: 'email' });
    }
    const inviteeId = (await this.profiles.findIdByEmail(manager, args.email)) ?? null;
    const { secret, hash } = newInvitationSecret();
    const invitation = await this.invitations.upsertOpen(
      manager,
      {
        projectId: project.id,
        inviterId: context.userId,
        inviteeEmail: args.email,
        inviteeId,
        role: args.role ?? DEFAULT_COLLABORATOR_ROLE,
        message: args.message ?? '',
        secretHash: hash,
      },
      context.version,
    );
    await context.tx.emit(SyncEvents.shareInvitationSent, invitationSentPayload(invitation, project.name, inviter, secret));
    // Members see the invited collaborator state; the receiver's sync picks it up too.
    context.touch(project.id);
    if (inviteeId) context.touchUsers(inviteeId);
    return {};
  }
}
