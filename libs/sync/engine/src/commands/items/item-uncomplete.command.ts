import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { forEachId, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from './item-access';
import { ReopeningRepositories, uncompleteItem } from './item-completion';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ id: idArg.optional(), ids: z.array(idArg).max(100).optional() });

/** item_uncomplete: back from history, with its ancestors and its archived section, at the end of its parent. */
@Injectable()
export class ItemUncompleteCommand implements CommandHandler {
  readonly type = 'item_uncomplete';
  readonly policy = inProject('complete', { quantity: ['max_tasks', 'max_sections'] });

  constructor(private readonly repositories: ReopeningRepositories) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const items = this.repositories.items;
    return forEachId(context, parseArgs(argsSchema, rawArgs), async (id) => uncompleteItem(this.repositories, context, await loadItem(items, context, id)));
  }
}
