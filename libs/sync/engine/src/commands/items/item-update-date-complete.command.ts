import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ItemDates, ItemRepository, requireTaskRoom } from '@doable/sync-domain';
import { flag, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from './item-access';
import { completeItem, ReopeningRepositories, uncompleteItem } from './item-completion';
import { recordObjectEvents } from '../../object-events';
import { announceCompletion, itemChange } from './item-events';
import { inProject } from '@doable/contracts-sync';

const argsSchema = z.object({ id: idArg, due: z.unknown().optional(), is_forward: flag.optional(), reset_subtasks: flag.optional() });

/**
 * item_update_date_complete: one occurrence of a recurring task, done or undone, with the due
 * the client gives (public-api-facts §1.2, §1.3).
 * - `is_forward` (default true): the occurrence is completed and the due moves to `due`; without
 *   `due` the next occurrence is computed, and a series that has ended completes the task.
 * - `is_forward: false` is the undo: the due moves back to `due` (required, there is nothing to
 *   compute it from), and a task the last occurrence completed is reopened.
 * - `reset_subtasks` unchecks the subtasks either way.
 */
@Injectable()
export class ItemUpdateDateCompleteCommand implements CommandHandler {
  readonly type = 'item_update_date_complete';
  readonly policy = inProject('complete', { quantity: 'max_tasks' });

  private readonly items: ItemRepository;

  constructor(
    private readonly repositories: ReopeningRepositories,
    private readonly dates: ItemDates,
  ) {
    this.items = repositories.items;
  }

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const item = await loadItem(this.items, context, args.id);
    const forward = args.is_forward ?? true;
    const given = this.dates.due(args.due, context.user);
    if (!forward) {
      if (given === undefined) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: due', { argument: 'due' });
      if (item.checked) await uncompleteItem(this.repositories, context, item);
      else await announceCompletion(context, [item], false); // the occurrence undone
      await this.items.update(context.tx.manager, item.id, { due: given }, context.version);
    } else if (given !== undefined) {
      await this.items.update(context.tx.manager, item.id, { due: given }, context.version);
      await announceCompletion(context, [item], true); // an occurrence done
      await recordObjectEvents(context, [itemChange(item, 'completed', {}, { object: { ...item, due: given }, previous: item })]);
    } else {
      if (!item.due) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: due', { argument: 'due' });
      const next = this.dates.next(item.due, new Date(), context.user.timezone);
      if (next) {
        await this.items.update(context.tx.manager, item.id, { due: next }, context.version);
        await announceCompletion(context, [item], true);
        await recordObjectEvents(context, [itemChange(item, 'completed', {}, { object: { ...item, due: next }, previous: item })]);
      } else await completeItem(this.repositories, context, item, new Date(), false);
    }
    if (args.reset_subtasks) {
      const subtasks = (await this.items.subtree(context.tx.manager, item.id)).slice(1);
      // Checked subtasks are open again: they count against what the project holds.
      await requireTaskRoom(this.items, context, item.project_id, subtasks.filter((task) => task.checked).length);
      await this.items.setState(context.tx.manager, subtasks.map((task) => task.id), { checked: false, in_history: false, completed_at: null }, context.version);
    }
    context.touch(item.project_id);
    return {};
  }
}
