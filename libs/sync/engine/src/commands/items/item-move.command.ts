import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ItemRepository, ProjectRepository, requireTaskRoom, SectionRepository } from '@doable/sync-domain';
import { loadSection } from '../sections/section-access';
import { forEachId, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from './item-access';
import { itemChange } from './item-events';
import { recordObjectEvents } from '../../object-events';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({
  id: idArg.optional(),
  // v7 moved several tasks to one project (`project_items`), answered per id (forEachId).
  ids: z.array(idArg).max(100).optional(),
  parent_id: idArg.optional(),
  section_id: idArg.optional(),
  project_id: idArg.optional(),
});

/**
 * item_move: exactly one destination. The task becomes the last child of a parent, or the last
 * root task of a project; its subtasks travel with it.
 */
@Injectable()
export class ItemMoveCommand implements CommandHandler {
  readonly type = 'item_move';
  readonly policy = inProject('edit', { quantity: 'max_tasks' });

  constructor(
    private readonly items: ItemRepository,
    private readonly projects: ProjectRepository,
    private readonly sections: SectionRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const destinations = [args.parent_id, args.section_id, args.project_id].filter((value) => value !== undefined);
    if (destinations.length !== 1) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'Exactly one of parent_id, section_id or project_id is required', { argument: 'parent_id' });
    }
    return forEachId(context, args, (id) => this.moveOne(context, id, args));
  }

  private async moveOne(context: CommandContext, id: string | number, args: z.infer<typeof argsSchema>): Promise<void> {
    const item = await loadItem(this.items, context, id);
    // Subtasks follow their parent into its project and section.
    const moving = await this.items.subtree(context.tx.manager, item.id);
    let projectId: string;
    let parentId: string | null = null;
    let sectionId: string | null = null;
    if (args.section_id !== undefined) {
      const section = await loadSection(this.sections, context, args.section_id, 'section_id');
      projectId = section.project_id;
      sectionId = section.id;
    } else if (args.parent_id !== undefined) {
      const parent = await loadItem(this.items, context, args.parent_id, 'parent_id');
      if (moving.some((task) => task.id === parent.id)) {
        throw new DomainError('INVALID_ARGUMENT_VALUE', 'A task cannot be moved under itself or its subtasks', { argument: 'parent_id' });
      }
      projectId = parent.project_id;
      parentId = parent.id;
      sectionId = parent.section_id;
    } else {
      const target = await this.projects.findVisible(context.tx.manager, context.userId, await context.resolveId(args.project_id, 'project_id'));
      if (!target) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id' });
      // The task leaves one project for another: the caller's role must allow it in both.
      await context.requireAccess(target.id);
      projectId = target.id;
    }

    // Into another project: the open tasks moving count against what it holds.
    if (projectId !== item.project_id) await requireTaskRoom(this.items, context, projectId, moving.filter((task) => !task.checked).length);
    const childOrder = await this.items.nextChildOrder(context.tx.manager, projectId, parentId);
    await this.items.update(context.tx.manager, item.id, { parent_id: parentId, project_id: projectId, section_id: sectionId, child_order: childOrder }, context.version);
    const descendants = moving.slice(1);
    await this.items.setState(context.tx.manager, descendants.map((task) => task.id), { project_id: projectId, section_id: sectionId }, context.version);
    // In another project, a task stays assigned only to a member of it.
    if (projectId !== item.project_id) await this.items.unassignNonMembers(context.tx.manager, [item.id, ...descendants.map((task) => task.id)], projectId, context.version);
    context.touch(item.project_id, projectId);
    // A move is an update to webhooks (item:updated); the activity log keeps no such entry (no last_* keys).
    const moved = { ...item, project_id: projectId, parent_id: parentId, section_id: sectionId, child_order: childOrder };
    await recordObjectEvents(context, [itemChange(moved, 'updated', {}, { object: moved, previous: item })]);
  }
}
