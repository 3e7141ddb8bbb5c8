import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ProjectRepository } from '@doable/sync-domain';
import { colorName } from '../../colors';
import { flag, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject } from './project-access';
import { accessArg, ProjectWorkspaceRepositories, roleDefaultArg, refuseTeamArgsOnPersonal, requireFolderOf } from './workspace-project';
import { recordObjectEvents, withChanges } from '../../object-events';
import { projectChange } from './project-events';
import { inProject, PROJECT_UPDATE_ARGS } from '@doable/contracts-sync';

/** The arguments only a workspace project has. */
const TEAM_ARGUMENTS = ['folder_id', 'is_invite_only', 'status', 'access', 'collaborator_role_default', 'is_link_sharing_enabled'] as const;

/** The project table's update arguments (a workspace project's team settings among them: sdk 17 UpdateProjectArgs), and what no line names. */
const argsSchema = z.object({
  id: idArg,
  ...PROJECT_UPDATE_ARGS,
  collapsed: flag.optional(),
  access: accessArg.optional(),
  collaborator_role_default: roleDefaultArg.optional(),
});

/**
 * project_update: renames, recolours and restyles (moving is project_move); of a workspace
 * project also its team settings and folder. A sub-project keeps its own folder (the spec is
 * silent; the clients show folders of top-level projects).
 */
@Injectable()
export class ProjectUpdateCommand implements CommandHandler {
  readonly type = 'project_update';
  readonly policy = inProject('manage');

  constructor(
    private readonly projects: ProjectRepository,
    private readonly workspace: ProjectWorkspaceRepositories,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const project = await loadProject(this.projects, context, args.id);
    refuseTeamArgsOnPersonal(project, args, TEAM_ARGUMENTS);
    let folderId: string | null | undefined;
    if (args.folder_id === null) folderId = null;
    else if (args.folder_id !== undefined) folderId = await requireFolderOf(this.workspace.folders, context, args.folder_id, project.workspace_id!);
    const changes = {
        name: project.inbox_project ? undefined : args.name,
        color: args.color === undefined ? undefined : colorName(args.color),
        description: args.description,
        is_collapsed: args.is_collapsed ?? args.collapsed,
        is_favorite: args.is_favorite,
        view_style: args.view_style,
        folder_id: folderId,
        is_invite_only: args.is_invite_only,
        status: args.status,
        visibility: args.access?.visibility,
        collaborator_role_default: args.collaborator_role_default,
        is_link_sharing_enabled: args.is_link_sharing_enabled,
      };
    await this.projects.update(context.tx.manager, project.id, changes, context.version);
    const updated = withChanges(project, changes);
    await recordObjectEvents(context, [projectChange(updated, 'updated', updated.name === project.name ? {} : { last_name: project.name })]);
    context.touch(project.id);
    return {};
  }
}
