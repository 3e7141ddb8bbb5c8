import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { PROJECT_COLORS, ProjectRepository, VIEW_STYLES } from '@doable/sync-domain';
import { colorName } from '../../colors';
import { flag, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject } from './project-access';
import { ProjectWorkspaceRepositories, refuseTeamArgsOnPersonal, requireFolderOf, workspaceProjectArgs } from './workspace-project';
import { recordObjectEvents, withChanges } from '../../object-events';
import { projectChange } from './project-events';
import { inProject } from '@doable/contracts-sync';

/** The arguments only a workspace project has. */
const TEAM_ARGUMENTS = ['folder_id', 'is_invite_only', 'status', 'access', 'collaborator_role_default', 'is_link_sharing_enabled'] as const;

const argsSchema = z.object({
  id: idArg,
  name: z.string().trim().min(1).max(120).optional(),
  color: z.union([z.enum(PROJECT_COLORS), storedInteger]).optional(),
  description: z.string().max(16_384).optional(),
  is_collapsed: flag.optional(),
  collapsed: flag.optional(),
  is_favorite: flag.optional(),
  view_style: z.enum(VIEW_STYLES).optional(),
  // A workspace project's team settings (the contract); folder_id null takes it out of its folder.
  ...workspaceProjectArgs,
  folder_id: idArg.nullable().optional(),
  is_link_sharing_enabled: flag.optional(),
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
