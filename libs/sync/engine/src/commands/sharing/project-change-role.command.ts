import { Injectable } from '@nestjs/common';
import { isObjectId } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ProjectMembersRepository, ProjectRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject } from '../projects/project-access';
import { collaboratorRoleArg, requireGrantable } from './sharing-args';
import { grantsFromArgument, inProject, ownsProject } from '@doable/contracts-sync';

const argsSchema = z.object({ id: idArg, user_id: idArg, role: collaboratorRoleArg });

/**
 * project_change_role: the CREATOR or an ADMIN (requireAccess, the 'manage' group) gives a
 * collaborator another role, never one above their own (mayGrantRole). The CREATOR's role never
 * changes and nobody becomes CREATOR (the role argument cannot name it).
 */
@Injectable()
export class ProjectChangeRoleCommand implements CommandHandler {
  readonly type = 'project_change_role';
  readonly policy = inProject('manage', { membership: 'projects', grants: grantsFromArgument('project', 'role') });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly members: ProjectMembersRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const project = await loadProject(this.projects, context, args.id);
    requireGrantable(await context.requireAccess(project.id), args.role);
    const userId = String(args.user_id);
    const member = isObjectId(userId) ? await this.members.findActiveById(context.tx.manager, project.id, userId) : undefined;
    if (!member) throw new DomainError('INVALID_ARGUMENT_VALUE', 'This user is no collaborator of the project', { argument: 'user_id' });
    if (ownsProject(member.role)) throw new DomainError('FORBIDDEN', 'The role of the creator of a project cannot be changed', { argument: 'user_id' });
    await this.members.changeRole(context.tx.manager, project.id, userId, args.role, context.version);
    // Every member's collaborator states carry roles, and the project row its permissions.
    await this.projects.update(context.tx.manager, project.id, {}, context.version);
    context.touch(project.id);
    return {};
  }
}
