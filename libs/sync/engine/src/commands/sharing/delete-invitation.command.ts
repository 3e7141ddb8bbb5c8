import { Injectable } from '@nestjs/common';
import { isObjectId } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ProjectInvitationsRepository, ProjectMembersRepository, UserProfileRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { emitInvitationAnswered, refuseAnswered } from './sharing-args';
import { inProject, mayWithdrawInvitation } from '@doable/contracts-sync';

const argsSchema = z.object({ invitation_id: idArg });

/**
 * delete_invitation: withdraws an open invitation. Its sender may, and so may the project's
 * CREATOR and ADMINs (who manage its collaborators); a sender who lost the right to invite
 * cannot (requireAccess, the 'invite' group). To anyone outside the project the invitation does
 * not exist.
 */
@Injectable()
export class DeleteInvitationCommand implements CommandHandler {
  readonly type = 'delete_invitation';
  readonly policy = inProject('invite');

  constructor(
    private readonly invitations: ProjectInvitationsRepository,
    private readonly members: ProjectMembersRepository,
    private readonly profiles: UserProfileRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const manager = context.tx.manager;
    const id = String(args.invitation_id);
    const invitation = isObjectId(id) ? await this.invitations.findForUpdate(manager, id) : undefined;
    const projectName = invitation ? await this.invitations.projectName(manager, invitation.project_id) : undefined;
    if (!invitation || projectName === undefined || !(await this.members.roleOf(manager, invitation.project_id, context.userId))) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid invitation', { argument: 'invitation_id' });
    }
    const role = await context.requireAccess(invitation.project_id);
    if (!mayWithdrawInvitation(role, invitation.inviter_id === context.userId)) {
      throw new DomainError('FORBIDDEN', 'Only the sender of an invitation, or the project\'s CREATOR or ADMINs, may delete it', { argument: 'invitation_id', role });
    }
    refuseAnswered(invitation);
    await this.invitations.answer(manager, invitation.id, 'deleted', context.version);
    await emitInvitationAnswered(this.profiles, context, invitation, projectName, 'deleted');
    context.touch(invitation.project_id);
    if (invitation.invitee_id) context.touchUsers(invitation.invitee_id);
    return {};
  }
}
