import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { ItemRepository } from '@doable/sync-domain';
import { forEachEntry, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { recordObjectEvents } from '../../object-events';
import { loadItem } from './item-access';
import { itemChange } from './item-events';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ items: z.array(z.object({ id: idArg, child_order: storedInteger })).min(1).max(1_000) });

/** item_reorder: new positions among siblings, each task on its own (a refused id leaves the others applied). */
@Injectable()
export class ItemReorderCommand implements CommandHandler {
  readonly type = 'item_reorder';
  readonly policy = inProject('edit');

  constructor(private readonly items: ItemRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const entries = parseArgs(argsSchema, rawArgs).items.map((entry) => [String(entry.id), entry] as const);
    return forEachEntry(context, entries, async (entry) => {
      const item = await loadItem(this.items, context, entry.id);
      await this.items.update(context.tx.manager, item.id, { child_order: entry.child_order }, context.version);
      context.touch(item.project_id);
      // A reorder is an update of each task it moves (item:updated, intent item_updated).
      const moved = { ...item, child_order: entry.child_order };
      if (item.child_order !== entry.child_order) await recordObjectEvents(context, [itemChange(moved, 'updated', {}, { object: moved, previous: item })]);
    });
  }
}
