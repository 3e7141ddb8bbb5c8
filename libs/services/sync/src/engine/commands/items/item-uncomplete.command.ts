import { z } from 'zod';
import { type ItemRepository } from '../../../items/item.repository';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { idArg, idsOf } from './item-args';
import { loadItem } from './item-access';
import { uncompleteItem } from './item-completion';

const argsSchema = z.object({ id: idArg.optional(), ids: z.array(idArg).max(100).optional() });

/** item_uncomplete: back from history, with its ancestors, at the end of its parent. */
export class ItemUncompleteCommand implements CommandHandler {
  readonly type = 'item_uncomplete';

  constructor(private readonly items: ItemRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    for (const id of idsOf(args)) await uncompleteItem(this.items, context, await loadItem(this.items, context, id));
    return {};
  }
}
