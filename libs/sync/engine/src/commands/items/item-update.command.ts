import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ItemDates, ItemRepository, LabelRepository } from '@doable/sync-domain';
import { flag, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { requireTaskFeatures } from './item-add.command';
import { checkContent } from './item-args';
import { loadItem } from './item-access';
import { recordObjectEvents } from '../../object-events';
import { announceAssignment, assigneeOf, itemUpdateChange } from './item-events';
import { labelIdsArg, taskLabels } from './item-labels';
import { argValues, inProject, TASK_FIELDS, TASK_UPDATE_ARGS } from '@doable/contracts-sync';

const argsSchema = z.object({
  id: idArg,
  // The task's fields, from its table; then the aliases.
  ...TASK_UPDATE_ARGS,
  label_ids: labelIdsArg.optional(),
  collapsed: flag.optional(),
});

/** item_update: changes a task's fields. It does not move, reparent, complete or uncomplete. */
@Injectable()
export class ItemUpdateCommand implements CommandHandler {
  readonly type = 'item_update';
  readonly policy = inProject('edit');

  constructor(
    private readonly items: ItemRepository,
    private readonly dates: ItemDates,
    private readonly labels: LabelRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    const item = await loadItem(this.items, context, args.id);
    const labels = await taskLabels(this.labels, context, args);
    const deadline = this.dates.deadline(args.deadline);
    const duration = this.dates.duration(args.duration);
    await requireTaskFeatures(context, { deadline, duration });
    const responsibleUid = await assigneeOf(context, item.project_id, args.responsible_uid);
    // Assigning a task to whom it is assigned already changes nothing (assigned_by_uid included).
    const reassigned = responsibleUid !== undefined && responsibleUid !== item.responsible_uid;
    const updated = await this.items.update(
      context.tx.manager,
      item.id,
      {
        // The task fields it does nothing special with, as parsed (argValues); then its rules.
        ...argValues(TASK_FIELDS, 'update', args),
        content: args.content === undefined ? undefined : checkContent(args.content),
        due: this.dates.due(args.due, context.user),
        deadline,
        duration,
        labels,
        is_collapsed: args.is_collapsed ?? args.collapsed,
        responsible_uid: reassigned ? responsibleUid : undefined,
        assigned_by_uid: reassigned ? (responsibleUid ? context.userId : null) : undefined,
      },
      context.version,
    );
    if (reassigned) await announceAssignment(context, updated, responsibleUid ?? null, item.responsible_uid);
    const change = itemUpdateChange(item, updated);
    if (change) await recordObjectEvents(context, [change]);
    context.touch(item.project_id);
    return {};
  }
}
