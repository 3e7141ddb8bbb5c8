import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ItemRepository } from '@doable/sync-domain';
import { forEachId, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from './item-access';
import { recordObjectEvents } from '../../object-events';
import { itemChange } from './item-events';
import { DATA_DELETE, inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ id: idArg.optional(), ids: z.array(idArg).max(100).optional() });

/** item_delete: the task and its subtasks become tombstones (sent once to every member, then gone). */
@Injectable()
export class ItemDeleteCommand implements CommandHandler {
  readonly type = 'item_delete';
  readonly policy = inProject('edit', { scopes: DATA_DELETE });

  constructor(private readonly items: ItemRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    // Subtasks an earlier id of the same command deleted with their parent: done, not missing.
    const deleted = new Set<string>();
    return forEachId(context, parseArgs(argsSchema, rawArgs), async (id) => {
      if (deleted.has(await context.resolveId(id, 'id'))) return;
      const item = await loadItem(this.items, context, id);
      const tasks = await this.items.subtree(context.tx.manager, item.id);
      const subtree = tasks.map((task) => task.id);
      await this.items.setState(context.tx.manager, subtree, { is_deleted: true }, context.version);
      // One event per task deleted: the subtasks went too.
      await recordObjectEvents(context, tasks.map((task) => itemChange(task, 'deleted', {}, { object: { ...task, is_deleted: true } })));
      context.touch(item.project_id);
      subtree.forEach((taskId) => deleted.add(taskId));
    });
  }
}
