import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { ProjectRepository } from '@doable/sync-domain';
import { forEachEntry, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { recordObjectEvents } from '../../object-events';
import { loadProject } from './project-access';
import { projectChange } from './project-events';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ projects: z.array(z.object({ id: idArg, child_order: storedInteger })).min(1).max(1_000) });

/** project_reorder: new positions among siblings, each project on its own (a refused id leaves the others applied). */
@Injectable()
export class ProjectReorderCommand implements CommandHandler {
  readonly type = 'project_reorder';
  readonly policy = inProject('manage');

  constructor(private readonly projects: ProjectRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const entries = parseArgs(argsSchema, rawArgs).projects.map((entry) => [String(entry.id), entry] as const);
    return forEachEntry(context, entries, async (entry) => {
      const project = await loadProject(this.projects, context, entry.id);
      await this.projects.update(context.tx.manager, project.id, { child_order: entry.child_order }, context.version);
      context.touch(project.id);
      // A reorder is an update of each project it moves (project:updated).
      if (project.child_order !== entry.child_order) await recordObjectEvents(context, [projectChange({ ...project, child_order: entry.child_order }, 'updated')]);
    });
  }
}
