import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { applyOrdersIndents, placeNewTask, type Project, ProjectRepository, type TreePlace } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject, refuseInbox } from './project-access';
import { ProjectAddCommand } from './project-add.command';
import { inProject } from '@doable/contracts-sync';

/**
 * Projects placed from Sync v7's flat list (`item_order` = position in the account's depth-first
 * project list, `indent` = 1 + depth), as item-flat-place.command.ts places tasks: the account's
 * projects are read inside the command's transaction, the new tree is worked out with
 * items/task-tree-order, and the projects whose parent or child_order changes are written.
 */

/** Stands for the project being created among the existing ones: no id is empty. */
const NEW_PROJECT = '';

async function writePlaces(projects: ProjectRepository, context: CommandContext, stored: readonly Project[], places: readonly TreePlace[], newId?: string): Promise<void> {
  const byId = new Map(stored.map((project) => [project.id, project]));
  const real = (id: string) => (id === NEW_PROJECT && newId !== undefined ? newId : id);
  for (const place of places) {
    const id = real(place.id);
    const parentId = place.parent_id === null ? null : real(place.parent_id);
    const was = byId.get(id);
    if (!was || (was.parent_id === parentId && was.child_order === place.child_order)) continue;
    if (parentId !== null) refuseInbox(was, 'nested');
    // Re-placing a project moves it for all its members. The projects a command names were
    // checked by their loader; one only renumbered around them that the user may not re-place
    // (a shared project where they are no admin) keeps its place.
    if (!(await mayReplace(context, id))) continue;
    await projects.update(context.tx.manager, id, { parent_id: parentId, child_order: place.child_order }, context.version);
    context.touch(id);
  }
}

async function mayReplace(context: CommandContext, projectId: string): Promise<boolean> {
  try {
    await context.requireAccess(projectId);
    return true;
  } catch (refusal) {
    if (refusal instanceof DomainError && refusal.code === 'FORBIDDEN') return false;
    throw refusal;
  }
}

const flatPlace = z.object({ item_order: storedInteger.optional(), indent: storedInteger.optional() });

/** `project_add` at a flat place in the account's project list. */
@Injectable()
export class ProjectAddFlatCommand implements CommandHandler {
  readonly type = 'project_add_flat';
  readonly policy = inProject('manage', { quantity: 'max_projects' });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly add: ProjectAddCommand,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const { item_order, indent, ...rest } = rawArgs;
    const place = parseArgs(flatPlace, { item_order, indent });
    const stored = await this.projects.listActive(context.tx.manager, context.userId);
    const placement = placeNewTask(stored, place, NEW_PROJECT);
    const outcome = await this.add.run(context, { ...rest, parent_id: placement.parent_id, child_order: placement.child_order });
    await writePlaces(this.projects, context, stored, placement.changes, outcome.createdId);
    return outcome;
  }
}

const ordersIndentsSchema = z.object({
  ids_to_orders_indents: z.record(z.string().max(100), z.tuple([storedInteger, storedInteger])).refine((map) => Object.keys(map).length <= 1_000, 'at most 1000 ids'),
});

/** `project_update_orders_indents` (v7): `{id: [item_order, indent]}` for some projects; the others keep their places. */
@Injectable()
export class ProjectUpdateOrdersIndentsCommand implements CommandHandler {
  readonly type = 'project_update_orders_indents';
  readonly policy = inProject('manage');

  constructor(private readonly projects: ProjectRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(ordersIndentsSchema, rawArgs);
    const wanted = new Map<string, readonly [number, number]>();
    const entries = Object.entries(args.ids_to_orders_indents).map(([id, orderIndent]) => [id, { id, orderIndent }] as const);
    const statuses = await context.eachObject(entries, async ({ id, orderIndent }) => {
      const project = await loadProject(this.projects, context, idArg.parse(id));
      if (orderIndent[1] > 1) refuseInbox(project, 'nested');
      wanted.set(project.id, orderIndent);
    });
    const stored = await this.projects.listActive(context.tx.manager, context.userId);
    await writePlaces(this.projects, context, stored, applyOrdersIndents(stored, wanted));
    return { perObject: { statuses, answer: 'when-refused' } };
  }
}
