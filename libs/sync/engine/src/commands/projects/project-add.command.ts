import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ProjectRepository, requireProjectRoom, requireWorkspaceProjectRoom, type WorkspaceProjectSettings } from '@doable/sync-domain';
import { flag, parseArgs } from '../../command-args';
import { colorName } from '../../colors';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { accessArg, ProjectWorkspaceRepositories, roleDefaultArg, requireFolderOf } from './workspace-project';
import { recordObjectEvents } from '../../object-events';
import { projectChange } from './project-events';
import { inWorkspace, PROJECT_ADD_ARGS } from '@doable/contracts-sync';

/** The project table's add arguments (a workspace project's among them: sdk 17 AddProjectArgs), and what no line names. */
const argsSchema = z.object({
  ...PROJECT_ADD_ARGS,
  // v9 spells it `collapsed`, api/v1 `is_collapsed`: both are accepted.
  collapsed: flag.optional(),
  access: accessArg.optional(),
  collaborator_role_default: roleDefaultArg.optional(),
});

@Injectable()
export class ProjectAddCommand implements CommandHandler {
  readonly type = 'project_add';
  /** Its workspace half (workspace_id); a personal project is the user's own, and one under a shared parent is checked as project_move there. */
  readonly policy = inWorkspace('contribute', { quantity: 'max_projects' });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly workspace: ProjectWorkspaceRepositories,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    let parentId: string | null = null;
    let parentWorkspaceId: string | null = null;
    if (args.parent_id !== undefined && args.parent_id !== null) {
      parentId = await context.resolveId(args.parent_id, 'parent_id');
      const parent = await this.projects.findVisible(context.tx.manager, context.userId, parentId);
      if (!parent) throw new DomainError('PROJECT_NOT_FOUND', 'Parent project not found', { argument: 'parent_id' });
      // A project's place is stored on it and shown to all the parent's members: placing one
      // under a shared project is what project_move there needs.
      await context.requireAccess(parent.id, 'project_move');
      parentWorkspaceId = parent.workspace_id;
    }
    let workspaceId = args.workspace_id === undefined || args.workspace_id === null ? null : await context.resolveId(args.workspace_id, 'workspace_id');
    // A sub-project belongs where its parent does: a workspace project's sub-project is the
    // workspace's (workspace_id may be left out), and a personal project cannot hold a workspace one.
    if (parentId !== null) {
      if (workspaceId !== null && workspaceId !== parentWorkspaceId) {
        throw new DomainError('INVALID_ARGUMENT_VALUE', 'A sub-project belongs to the workspace of its parent', { argument: 'workspace_id', parent_workspace_id: parentWorkspaceId });
      }
      workspaceId = parentWorkspaceId;
    }
    const workspace = workspaceId === null ? undefined : await this.workspaceSettings(context, workspaceId, args);
    if (!workspace) {
      const teamArgument = (['folder_id', 'is_invite_only', 'status', 'access', 'collaborator_role_default'] as const).find((name) => args[name] !== undefined && args[name] !== null);
      if (teamArgument) throw new DomainError('INVALID_ARGUMENT_VALUE', `${teamArgument} applies to workspace projects only (give workspace_id)`, { argument: teamArgument });
      // The new project is the actor's own (whoever owns the parent).
      await requireProjectRoom(this.projects, context);
    }
    const project = await this.projects.insert(
      context.tx.manager,
      {
        ownerId: context.userId,
        name: args.name,
        description: args.description ?? '',
        color: args.color === undefined ? 'charcoal' : colorName(args.color),
        parentId,
        childOrder: args.child_order ?? null,
        isCollapsed: args.is_collapsed ?? args.collapsed ?? false,
        isFavorite: args.is_favorite ?? false,
        viewStyle: args.view_style ?? 'list',
        workspace,
      },
      context.version,
    );
    await recordObjectEvents(context, [projectChange(project, 'added')]);
    // The workspace shows its count of active projects to every member.
    if (workspace) context.touchWorkspace(workspace.workspaceId);
    return { createdId: project.id };
  }

  /**
   * A workspace project's settings: the caller may contribute in the workspace (guests may not),
   * the folder is one of its folders, and the workspace's plan has room for one more active
   * project (not the creator's personal max_projects).
   */
  private async workspaceSettings(context: CommandContext, workspaceId: string, args: z.infer<typeof argsSchema>): Promise<WorkspaceProjectSettings> {
    await context.requireWorkspaceAccess(workspaceId, 'project_add');
    const folderId = args.folder_id === undefined || args.folder_id === null ? null : await requireFolderOf(this.workspace.folders, context, args.folder_id, workspaceId);
    await requireWorkspaceProjectRoom(this.projects, context, workspaceId);
    return {
      workspaceId,
      folderId,
      isInviteOnly: args.is_invite_only ?? false,
      status: args.status ?? 'IN_PROGRESS',
      visibility: args.access?.visibility ?? 'team',
      collaboratorRoleDefault: args.collaborator_role_default ?? 'READ_WRITE',
    };
  }
}
