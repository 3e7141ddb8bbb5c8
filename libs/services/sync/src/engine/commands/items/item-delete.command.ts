import { z } from 'zod';
import { type ItemRepository } from '../../../items/item.repository';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { forEachId, idArg } from './item-args';
import { loadItem } from './item-access';

const argsSchema = z.object({ id: idArg.optional(), ids: z.array(idArg).max(100).optional() });

/** item_delete: the task and its subtasks become tombstones (sent once to every member, then gone). */
export class ItemDeleteCommand implements CommandHandler {
  readonly type = 'item_delete';

  constructor(private readonly items: ItemRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    return forEachId(context, parseArgs(argsSchema, rawArgs), async (id) => {
      const item = await loadItem(this.items, context, id);
      const subtree = await this.items.subtree(context.tx.manager, item.id);
      await this.items.setState(context.tx.manager, subtree.map((task) => task.id), { is_deleted: true }, context.version);
      context.touch(item.project_id);
    });
  }
}
