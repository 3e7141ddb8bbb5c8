import { Injectable } from '@nestjs/common';
import { DEFAULT_COLLABORATOR_ROLE, inWorkspace, isProjectRole, ownsProject } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { ProjectWorkspaceRepositories } from './workspace-project';

/**
 * project_join (REST `POST /api/v1/projects/{id}/join`): a workspace ADMIN or MEMBER joins a
 * project of their workspace with the project's collaborator_role_default. The caller is no
 * member of the project yet, so requireAccess cannot find it: the project is read by id
 * (ProjectRepository.findForJoin) and checked against the caller's workspace role instead.
 * Refusals: a personal project the caller is in 403 PROJECT_NOT_JOINABLE (tag
 * NOT_WORKSPACE_PROJECT), someone else's PROJECT_NOT_FOUND (existence is not told); a project
 * of a workspace the caller is not in (or none at all) PROJECT_NOT_FOUND; a guest, an
 * invite-only or an archived project FORBIDDEN; a member already INVALID_ARGUMENT_VALUE; over the
 * workspace plan's max_collaborators MAX_COLLABORATORS_LIMIT_REACHED. Joining a project does not
 * join its sub-projects (each is joined on its own; a guess).
 */
@Injectable()
export class ProjectJoinCommand implements CommandHandler {
  readonly type = 'project_join';
  /** The joiner gets the project's default role, which only its managers set (project_update). */
  readonly policy = inWorkspace('contribute', { membership: 'projects', grants: { role: 'project', argument: 'collaborator_role_default', from: 'project' }, quantity: 'max_collaborators' });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly members: ProjectMembersRepository,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly workspace: ProjectWorkspaceRepositories,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(z.object({ project_id: idArg }), rawArgs);
    const manager = context.tx.manager;
    const id = await context.resolveId(args.project_id, 'project_id');
    const project = await this.projects.findForJoin(manager, id);
    if (!project) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id', id });
    if (project.workspace_id === null) {
      // Someone else's personal project is not found, as everywhere (e2e rest-boundaries); one the
      // caller can see is there but personal: nothing to join.
      if (!(await this.members.roleOf(manager, project.id, context.userId))) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id', id });
      throw new DomainError('PROJECT_NOT_JOINABLE', 'Only workspace projects can be joined; this project is personal', { project_id: project.id });
    }
    // Someone outside the workspace learns nothing of its projects.
    if (!(await this.workspace.workspaceMembers.roleOf(manager, project.workspace_id, context.userId))) {
      throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id', id });
    }
    // Guests join nothing (they see only what they were invited to): FORBIDDEN.
    await context.requireWorkspaceAccess(project.workspace_id, 'project_join');
    if (await this.members.roleOf(manager, project.id, context.userId)) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'You are already a collaborator of this project', { argument: 'project_id', project_id: project.id });
    }
    if (project.is_invite_only) throw new DomainError('FORBIDDEN', 'This project is invite-only: ask one of its collaborators to invite you', { project_id: project.id });
    if (project.is_archived) throw new DomainError('FORBIDDEN', 'An archived project cannot be joined', { project_id: project.id });
    await context.plan.requireRoom('max_collaborators', {
      planOf: project.owner_id,
      workspace: project.workspace_id,
      count: () => this.invitations.countCollaborators(manager, project.id, project.owner_id),
      lockKey: project.id,
      extra: { project_id: project.id },
    });
    const role = isProjectRole(project.collaborator_role_default) && !ownsProject(project.collaborator_role_default) ? project.collaborator_role_default : DEFAULT_COLLABORATOR_ROLE;
    await this.members.addOrReactivate(manager, project.id, context.userId, role, context.version);
    // The project is now shared for every member (and its collaborators changed): each re-reads it.
    await this.projects.update(manager, project.id, {}, context.version);
    context.touch(project.id);
    return {};
  }
}
