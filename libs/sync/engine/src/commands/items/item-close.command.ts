import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ItemDates, ItemRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from './item-access';
import { CompletionRepositories, completeItem } from './item-completion';
import { recordObjectEvents } from '../../object-events';
import { announceCompletion, itemChange } from './item-events';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ id: idArg });

/**
 * item_close: what the checkbox does. A recurring task moves to its next occurrence (and is
 * completed when its series has ended); a subtask is checked under its parent; any other task
 * goes to history with its subtasks.
 */
@Injectable()
export class ItemCloseCommand implements CommandHandler {
  readonly type = 'item_close';
  readonly policy = inProject('complete');

  constructor(
    private readonly items: ItemRepository,
    private readonly completion: CompletionRepositories,
    private readonly dates: ItemDates,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const item = await loadItem(this.items, context, args.id);
    const now = new Date();
    if (item.due?.is_recurring) {
      const next = this.dates.next(item.due, now, context.user.timezone);
      if (next) {
        await this.items.update(context.tx.manager, item.id, { due: next }, context.version);
        // An occurrence done is a completion for whoever assigned or holds the task.
        await announceCompletion(context, [item], true);
        await recordObjectEvents(context, [itemChange(item, 'completed', {}, { object: { ...item, due: next }, previous: item })]);
        context.touch(item.project_id);
        return {};
      }
    }
    await completeItem(this.completion, context, item, now, false);
    return {};
  }
}
