import { storedInteger } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { requireProjectRoom } from '../../../plans/project-quantities';
import { PROJECT_COLORS, VIEW_STYLES } from '../../../projects/project.model';
import { type ProjectRepository } from '../../../projects/project.repository';
import { parseArgs } from '../../command-args';
import { colorName } from '../../colors';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';

const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 1);

const argsSchema = z.object({
  name: z.string().trim().min(1).max(120),
  color: z.union([z.enum(PROJECT_COLORS), storedInteger]).optional(),
  parent_id: z.union([z.string(), z.number()]).nullable().optional(),
  child_order: storedInteger.min(0).optional(),
  is_favorite: flag.optional(),
  view_style: z.enum(VIEW_STYLES).optional(),
  description: z.string().max(16_384).optional(),
  // v9 spells it `collapsed`, api/v1 `is_collapsed`: both are accepted.
  collapsed: flag.optional(),
  is_collapsed: flag.optional(),
});

export class ProjectAddCommand implements CommandHandler {
  readonly type = 'project_add';

  constructor(private readonly projects: ProjectRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    let parentId: string | null = null;
    if (args.parent_id !== undefined && args.parent_id !== null) {
      parentId = await context.resolveId(args.parent_id, 'parent_id');
      const parent = await this.projects.findVisible(context.tx.manager, context.userId, parentId);
      if (!parent) throw new DomainError('PROJECT_NOT_FOUND', 'Parent project not found', { argument: 'parent_id' });
      // A project's place is stored on it and shown to all the parent's members: placing one
      // under a shared project is what project_move there needs.
      await context.requireAccess(parent.id, 'project_move');
    }
    // The new project is the actor's own (whoever owns the parent).
    await requireProjectRoom(this.projects, context);
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
      },
      context.version,
    );
    return { createdId: project.id };
  }
}
