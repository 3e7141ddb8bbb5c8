import { z } from 'zod';
import { type ItemRepository } from '../../../items/item.repository';
import { type SectionRepository } from '../../../sections/section.repository';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { forEachId, idArg } from './item-args';
import { loadItem } from './item-access';
import { uncompleteItem } from './item-completion';

const argsSchema = z.object({ id: idArg.optional(), ids: z.array(idArg).max(100).optional() });

/** item_uncomplete: back from history, with its ancestors and its archived section, at the end of its parent. */
export class ItemUncompleteCommand implements CommandHandler {
  readonly type = 'item_uncomplete';

  constructor(
    private readonly items: ItemRepository,
    private readonly sections: SectionRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    return forEachId(context, parseArgs(argsSchema, rawArgs), async (id) => uncompleteItem(this.items, this.sections, context, await loadItem(this.items, context, id)));
  }
}
