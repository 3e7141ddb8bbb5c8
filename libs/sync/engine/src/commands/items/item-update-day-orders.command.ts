import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { ItemRepository } from '@doable/sync-domain';
import { forEachEntry, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { recordObjectEvents } from '../../object-events';
import { loadItem } from './item-access';
import { itemChange } from './item-events';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ ids_to_orders: z.record(z.string(), storedInteger) });

/** item_update_day_orders: positions in the daily agenda, each task on its own (a refused id leaves the others applied). */
@Injectable()
export class ItemUpdateDayOrdersCommand implements CommandHandler {
  readonly type = 'item_update_day_orders';
  readonly policy = inProject('edit');

  constructor(private readonly items: ItemRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const entries = Object.entries(parseArgs(argsSchema, rawArgs).ids_to_orders).map(([id, dayOrder]) => [id, { id, dayOrder }] as const);
    return forEachEntry(context, entries, async ({ id, dayOrder }) => {
      const item = await loadItem(this.items, context, id, 'ids_to_orders');
      await this.items.update(context.tx.manager, item.id, { day_order: dayOrder }, context.version);
      context.touch(item.project_id);
      // As item_update's day_order: an update of the task (item:updated).
      const placed = { ...item, day_order: dayOrder };
      if (item.day_order !== dayOrder) await recordObjectEvents(context, [itemChange(placed, 'updated', {}, { object: placed, previous: item })]);
    });
  }
}
