import { Injectable } from '@nestjs/common';
import { calendarInstantSchema } from '@doable/contracts-common';
import { z } from 'zod';
import { ItemRepository } from '@doable/sync-domain';
import { flag, forEachId, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from './item-access';
import { CompletionRepositories, completeItem } from './item-completion';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({
  id: idArg.optional(),
  ids: z.array(idArg).max(100).optional(),
  // v9/v1 name and the v8 name of the same argument.
  completed_at: calendarInstantSchema.optional(),
  date_completed: calendarInstantSchema.optional(),
  force_history: flag.optional(),
  from_undo: flag.optional(),
});

/**
 * item_complete: the task (and its subtasks) is completed. On a recurring task this ends the
 * recurrence, as on the public service (item_close is what advances it).
 */
@Injectable()
export class ItemCompleteCommand implements CommandHandler {
  readonly type = 'item_complete';
  readonly policy = inProject('complete');

  constructor(
    private readonly items: ItemRepository,
    private readonly completion: CompletionRepositories,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const at = args.completed_at ?? args.date_completed;
    return forEachId(context, args, async (id) => {
      const item = await loadItem(this.items, context, id);
      await completeItem(this.completion, context, item, at ? new Date(at) : new Date(), args.force_history ?? true);
    });
  }
}
