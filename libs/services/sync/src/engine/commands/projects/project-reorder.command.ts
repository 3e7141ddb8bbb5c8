import { z } from 'zod';
import { type ProjectRepository } from '../../../projects/project.repository';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { idArg } from '../items/item-args';
import { loadProject } from './project-access';

const argsSchema = z.object({ projects: z.array(z.object({ id: idArg, child_order: z.number().int() })).min(1).max(1_000) });

/** project_reorder: new positions among siblings, all or nothing. */
export class ProjectReorderCommand implements CommandHandler {
  readonly type = 'project_reorder';

  constructor(private readonly projects: ProjectRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    for (const entry of args.projects) {
      const project = await loadProject(this.projects, context, entry.id);
      await this.projects.update(context.tx.manager, project.id, { child_order: entry.child_order }, context.version);
      context.touch(project.id);
    }
    return {};
  }
}
