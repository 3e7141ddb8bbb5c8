import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type Project, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, requireWorkspaceProjectRoom } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { findProject, refuseInbox } from './project-access';
import { accessArg, ProjectWorkspaceRepositories, requireFolderOf } from './workspace-project';
import { administersWorkspace, inWorkspace, ownsProject, PROJECT_ADD_ARGS, PROJECT_OWNER_ROLE } from '@doable/contracts-sync';

/**
 * Moving a project between a user's personal projects and a workspace (the contract's
 * project_move_to_workspace / project_move_to_personal). Rules, where the spec is silent
 * (each written down in docs/api/workspaces.md):
 * - Only a top-level project moves; its sub-projects (archived ones too) go with it. A
 *   sub-project alone would split a tree between two owners' spaces: INVALID_ARGUMENT_VALUE.
 * - To a workspace: only the project's CREATOR (its owner; the project is theirs to give), who
 *   must be able to contribute in the target workspace (not a guest). The project's active
 *   projects count against the workspace plan's max_projects, its collaborators against its
 *   max_collaborators. Collaborators who are not members of the workspace stay collaborators of
 *   the project (they keep seeing it, as a guest invited to it would).
 * - To personal: the project's CREATOR, or a workspace ADMIN who is a member of the project.
 *   When an admin moves it, it becomes the admin's own (owner and CREATOR) and the former creator
 *   stays an ADMIN collaborator. Every other collaborator stays a collaborator of the now personal
 *   shared project (nobody loses what they could see). It counts against the new owner's
 *   personal max_projects and max_collaborators.
 */
@Injectable()
export class ProjectMoveToWorkspaceCommand implements CommandHandler {
  readonly type = 'project_move_to_workspace';
  /** Its project half is checked as project_delete: the project leaves its owner's hands. */
  readonly policy = inWorkspace('contribute', { membership: 'projects', quantity: ['max_projects', 'max_collaborators'] });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly workspace: ProjectWorkspaceRepositories,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(
      z.object({ project_id: idArg, workspace_id: idArg, folder_id: idArg.nullable().optional(), is_invite_only: PROJECT_ADD_ARGS.is_invite_only, access: accessArg.optional() }),
      rawArgs,
    );
    const project = await loadMovable(this.projects, context, args.project_id);
    if (project.workspace_id !== null) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'The project already belongs to a workspace (move it to personal first)', { argument: 'project_id', workspace_id: project.workspace_id });
    }
    // The project is its owner's to give away: CREATOR only (project_delete's right).
    await context.requireAccess(project.id, 'project_delete');
    const workspaceId = await context.resolveId(args.workspace_id, 'workspace_id');
    await context.requireWorkspaceAccess(workspaceId, 'project_move_to_workspace');
    const folderId = args.folder_id === undefined || args.folder_id === null ? null : await requireFolderOf(this.workspace.folders, context, args.folder_id, workspaceId);
    const subtree = await this.projects.subtree(context.tx.manager, project.id);
    const active = subtree.filter((each) => !each.is_archived).length;
    if (active > 0) await requireWorkspaceProjectRoom(this.projects, context, workspaceId, active);
    await context.plan.requireRoom('max_collaborators', {
      planOf: project.owner_id,
      workspace: workspaceId,
      count: () => this.invitations.countCollaborators(context.tx.manager, project.id, project.owner_id),
      adding: 0,
      lockKey: project.id,
      extra: { project_id: project.id },
    });
    const ids = subtree.map((each) => each.id);
    await this.projects.updateMany(context.tx.manager, ids, { workspace_id: workspaceId }, context.version);
    await this.projects.update(
      context.tx.manager,
      project.id,
      { folder_id: folderId, is_invite_only: args.is_invite_only, visibility: args.access?.visibility },
      context.version,
    );
    context.touch(...ids);
    context.touchWorkspace(workspaceId);
    return {};
  }
}

@Injectable()
export class ProjectMoveToPersonalCommand implements CommandHandler {
  readonly type = 'project_move_to_personal';
  readonly policy = inWorkspace('contribute', { membership: 'projects', quantity: ['max_projects', 'max_collaborators'] });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly members: ProjectMembersRepository,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly workspace: ProjectWorkspaceRepositories,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(z.object({ project_id: idArg }), rawArgs);
    const project = await loadMovable(this.projects, context, args.project_id);
    const workspaceId = project.workspace_id;
    if (workspaceId === null) throw new DomainError('INVALID_ARGUMENT_VALUE', 'The project is already a personal project', { argument: 'project_id' });
    const manager = context.tx.manager;
    const projectRole = await this.members.roleOf(manager, project.id, context.userId);
    if (!ownsProject(projectRole)) {
      // Not its creator: a workspace ADMIN (who is a member of the project: loadMovable found it).
      const workspaceRole = await context.requireWorkspaceAccess(workspaceId, 'project_move_to_personal');
      if (!administersWorkspace(workspaceRole)) {
        throw new DomainError('FORBIDDEN', 'Only the project creator or a workspace admin may move a project out of the workspace', { project_id: project.id });
      }
    }
    const subtree = await this.projects.subtree(manager, project.id);
    const ids = subtree.map((each) => each.id);
    const active = subtree.filter((each) => !each.is_archived).length;
    // The mover's own projects now: their personal plan counts them and their collaborators.
    if (active > 0) {
      await context.plan.requireRoom('max_projects', {
        planOf: context.userId,
        count: () => this.projects.countOwnedActive(manager, context.userId),
        adding: active,
      });
    }
    await context.plan.requireRoom('max_collaborators', {
      planOf: context.userId,
      count: () => this.invitations.countCollaborators(manager, project.id, context.userId),
      adding: 0,
      extra: { project_id: project.id },
    });
    if (project.owner_id !== context.userId) {
      for (const each of subtree) await this.transferOwnership(context, each);
    }
    await this.projects.updateMany(manager, ids, { workspace_id: null, folder_id: null }, context.version);
    context.touch(...ids);
    context.touchWorkspace(workspaceId);
    return {};
  }

  /** The mover becomes the project's owner and CREATOR; the former CREATOR stays as an ADMIN. */
  private async transferOwnership(context: CommandContext, project: Project): Promise<void> {
    const manager = context.tx.manager;
    if (project.owner_id === context.userId) return;
    await this.members.changeRole(manager, project.id, project.owner_id, 'ADMIN', context.version);
    if (!(await this.members.changeRole(manager, project.id, context.userId, PROJECT_OWNER_ROLE, context.version))) {
      await this.members.addOrReactivate(manager, project.id, context.userId, PROJECT_OWNER_ROLE, context.version);
    }
    await this.projects.setOwner(manager, project.id, context.userId, context.version);
  }
}

/** A project that may move: visible to the caller, not the Inbox, top-level (its sub-projects go with it). */
async function loadMovable(projects: ProjectRepository, context: CommandContext, value: unknown): Promise<Project> {
  // Visible to the caller; each command checks the role it needs (requireAccess / requireWorkspaceAccess).
  const project = await findProject(projects, context, value, 'project_id');
  refuseInbox(project, 'moved');
  if (project.parent_id !== null) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'A sub-project moves with its parent: move the top-level project', { argument: 'project_id', parent_id: project.parent_id });
  }
  return project;
}
