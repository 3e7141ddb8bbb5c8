import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { applyOrdersIndents, flattenTaskTree, type ItemPlace, ItemRepository, placeNewTask, type TreePlace } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from './item-access';
import { ItemAddCommand } from './item-add.command';
import { ItemUpdateCommand } from './item-update.command';
import { inProject, TASK_ADD } from '@doable/contracts-sync';

/**
 * The domain's commands that place tasks from the old generations' flat positions (`item_order`
 * = position in the project's depth-first list, `indent` = 1 + depth; Sync v7 and v6). The
 * domain keeps a tree; these read the project's tree inside the command's transaction (locked),
 * work out the new tree with items/task-tree-order, and write the tasks whose parent or
 * child_order changes. A dialect only renames its command to one of these.
 */

const flatPlace = z.object({ item_order: storedInteger.optional(), indent: storedInteger.optional() });

/** Stands for the task being created among the existing ones: no id is empty. */
const NEW_TASK = '';

/** Writes the places that differ from the stored ones; a task under a new parent takes the parent's section. */
async function writePlaces(items: ItemRepository, context: CommandContext, stored: readonly ItemPlace[], places: readonly TreePlace[], newId?: string): Promise<void> {
  const byId = new Map(stored.map((task) => [task.id, task]));
  const real = (id: string) => (id === NEW_TASK && newId !== undefined ? newId : id);
  for (const place of places) {
    const id = real(place.id);
    const parentId = place.parent_id === null ? null : real(place.parent_id);
    const was = byId.get(id);
    if (!was || (was.parent_id === parentId && was.child_order === place.child_order)) continue;
    const sectionId = parentId === null ? was.section_id : (byId.get(parentId)?.section_id ?? was.section_id);
    await items.update(context.tx.manager, id, { parent_id: parentId, child_order: place.child_order, section_id: sectionId }, context.version);
    context.touch(was.project_id);
  }
}

/** Splits the flat place off a command's other arguments (its `label_ids` are the plain command's). */
function splitPlace(rawArgs: Record<string, unknown>): { place: z.infer<typeof flatPlace>; rest: Record<string, unknown> } {
  const { item_order, indent, ...rest } = rawArgs;
  return { place: parseArgs(flatPlace, { item_order, indent }), rest };
}

/** `item_add` at a flat place: the new task is inserted into the project's list at `item_order` with `indent`. */
@Injectable()
export class ItemAddFlatCommand implements CommandHandler {
  readonly type = 'item_add_flat';
  readonly policy = inProject('edit', { scopes: TASK_ADD, quantity: 'max_tasks' });

  constructor(
    private readonly items: ItemRepository,
    private readonly add: ItemAddCommand,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const { place, rest } = splitPlace(rawArgs);
    const projectId = rest['project_id'] ? await context.resolveId(rest['project_id'], 'project_id') : context.user.inboxProjectId;
    // Checked before its tasks are locked; the INSERT checks the project's visibility again.
    await context.requireAccess(projectId);
    const stored = await this.items.listPlaces(context.tx.manager, [projectId], true);
    const placement = placeNewTask(stored, { item_order: place.item_order, indent: place.indent }, NEW_TASK);
    const outcome = await this.add.run(context, { ...rest, project_id: projectId, parent_id: placement.parent_id, child_order: placement.child_order });
    await writePlaces(this.items, context, stored, placement.changes, outcome.createdId);
    return outcome;
  }
}

/** `item_update` that may also move the task to a flat place (`indent`, `item_order`) in its project. */
@Injectable()
export class ItemUpdateFlatCommand implements CommandHandler {
  readonly type = 'item_update_flat';
  readonly policy = inProject('edit');

  constructor(
    private readonly items: ItemRepository,
    private readonly update: ItemUpdateCommand,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const { place, rest } = splitPlace(rawArgs);
    const outcome = await this.update.run(context, rest);
    if (place.item_order === undefined && place.indent === undefined) return outcome;
    const item = await loadItem(this.items, context, rest['id']);
    const stored = await this.items.listPlaces(context.tx.manager, [item.project_id], true);
    const current = flattenTaskTree(stored).get(item.id);
    if (!current) return outcome; // completed into history: it has no place in the list
    const wanted = new Map([[item.id, [place.item_order ?? current.item_order, place.indent ?? current.indent] as const]]);
    await writePlaces(this.items, context, stored, applyOrdersIndents(stored, wanted));
    return outcome;
  }
}

const ordersIndentsSchema = z.object({
  ids_to_orders_indents: z.record(z.string().max(100), z.tuple([storedInteger, storedInteger])).refine((map) => Object.keys(map).length <= 1_000, 'at most 1000 ids'),
});

/**
 * `item_update_orders_indents` (v7): `{id: [item_order, indent]}` for some tasks; the others keep
 * their flat places. Each id is looked up on its own (an unknown one is refused alone, answered
 * per id only then); the found ones are placed together, project by project.
 */
@Injectable()
export class ItemUpdateOrdersIndentsCommand implements CommandHandler {
  readonly type = 'item_update_orders_indents';
  readonly policy = inProject('edit');

  constructor(private readonly items: ItemRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(ordersIndentsSchema, rawArgs);
    const wanted = new Map<string, Map<string, readonly [number, number]>>();
    const entries = Object.entries(args.ids_to_orders_indents).map(([id, orderIndent]) => [id, { id, orderIndent }] as const);
    const statuses = await context.eachObject(entries, async ({ id, orderIndent }) => {
      const item = await loadItem(this.items, context, idArg.parse(id));
      const inProject = wanted.get(item.project_id) ?? new Map<string, readonly [number, number]>();
      inProject.set(item.id, orderIndent);
      wanted.set(item.project_id, inProject);
    });
    const stored = await this.items.listPlaces(context.tx.manager, [...wanted.keys()], true);
    for (const [projectId, ordersIndents] of wanted) {
      const tasks = stored.filter((task) => task.project_id === projectId);
      await writePlaces(this.items, context, tasks, applyOrdersIndents(tasks, ordersIndents));
    }
    return { perObject: { statuses, answer: 'when-refused' } };
  }
}
