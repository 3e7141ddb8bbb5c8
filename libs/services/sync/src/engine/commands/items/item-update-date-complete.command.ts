import { z } from 'zod';
import { type ItemDates } from '../../../items/item-dates';
import { type ItemRepository } from '../../../items/item.repository';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { flag, idArg } from './item-args';
import { loadItem } from './item-access';

const argsSchema = z.object({ id: idArg, due: z.unknown().optional(), is_forward: flag.optional(), reset_subtasks: flag.optional() });

/** item_update_date_complete: completes one occurrence of a recurring task with an explicit next due. */
export class ItemUpdateDateCompleteCommand implements CommandHandler {
  readonly type = 'item_update_date_complete';

  constructor(
    private readonly items: ItemRepository,
    private readonly dates: ItemDates,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const item = await loadItem(this.items, context, args.id);
    const due = args.due === undefined && item.due ? this.dates.next(item.due, new Date(), context.user.timezone) : this.dates.due(args.due, context.user);
    await this.items.update(context.tx.manager, item.id, { due: due ?? null }, context.version);
    if (args.reset_subtasks) {
      const subtasks = (await this.items.subtree(context.tx.manager, item.id)).slice(1);
      await this.items.setState(context.tx.manager, subtasks.map((task) => task.id), { checked: false, in_history: false, completed_at: null }, context.version);
    }
    context.touch(item.project_id);
    return {};
  }
}
