import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { PROJECT_COLORS, VIEW_STYLES } from '../../../projects/project.model';
import { type ProjectRepository } from '../../../projects/project.repository';
import { colorName } from '../../colors';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { flag, idArg } from '../items/item-args';
import { loadProject } from './project-access';

const argsSchema = z.object({
  id: idArg,
  name: z.string().trim().min(1).max(120).optional(),
  color: z.union([z.enum(PROJECT_COLORS), storedInteger]).optional(),
  description: z.string().max(16_384).optional(),
  is_collapsed: flag.optional(),
  collapsed: flag.optional(),
  is_favorite: flag.optional(),
  view_style: z.enum(VIEW_STYLES).optional(),
});

/** project_update: renames, recolours and restyles (moving is project_move). */
export class ProjectUpdateCommand implements CommandHandler {
  readonly type = 'project_update';

  constructor(private readonly projects: ProjectRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const project = await loadProject(this.projects, context, args.id);
    await this.projects.update(
      context.tx.manager,
      project.id,
      {
        name: project.inbox_project ? undefined : args.name,
        color: args.color === undefined ? undefined : colorName(args.color),
        description: args.description,
        is_collapsed: args.is_collapsed ?? args.collapsed,
        is_favorite: args.is_favorite,
        view_style: args.view_style,
      },
      context.version,
    );
    context.touch(project.id);
    return {};
  }
}
