import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ProjectRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { recordObjectEvents } from '../../object-events';
import { projectChange } from './project-events';
import { loadProject, refuseInbox } from './project-access';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ id: idArg, parent_id: idArg.nullable() });

/** project_move: under another project (last child), or to the root with `parent_id: null`. */
@Injectable()
export class ProjectMoveCommand implements CommandHandler {
  readonly type = 'project_move';
  /** A project's place in the tree is stored on the project, so moving it moves it for everyone. */
  readonly policy = inProject('manage');

  constructor(private readonly projects: ProjectRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const project = await loadProject(this.projects, context, args.id);
    refuseInbox(project, 'moved');
    let parentId: string | null = null;
    if (args.parent_id !== null) {
      const parent = await loadProject(this.projects, context, args.parent_id, 'parent_id');
      const subtree = await this.projects.subtree(context.tx.manager, project.id);
      if (subtree.some((candidate) => candidate.id === parent.id)) {
        throw new DomainError('INVALID_ARGUMENT_VALUE', 'A project cannot be moved under itself or its sub-projects', { argument: 'parent_id' });
      }
      // A project and its sub-projects are all personal or all of one workspace: moving between
      // the two is project_move_to_workspace / project_move_to_personal.
      if (parent.workspace_id !== project.workspace_id) {
        throw new DomainError('INVALID_ARGUMENT_VALUE', 'A project can only be moved under a project of the same workspace (or personal under personal)', {
          argument: 'parent_id',
          workspace_id: project.workspace_id,
          parent_workspace_id: parent.workspace_id,
        });
      }
      parentId = parent.id;
    }
    const childOrder = await this.projects.nextChildOrder(context.tx.manager, context.userId, parentId);
    await this.projects.update(context.tx.manager, project.id, { parent_id: parentId, child_order: childOrder }, context.version);
    context.touch(project.id);
    // A move is an update of the project (project:updated).
    await recordObjectEvents(context, [projectChange({ ...project, parent_id: parentId, child_order: childOrder }, 'updated')]);
    return {};
  }
}
