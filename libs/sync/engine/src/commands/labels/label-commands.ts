import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { LabelRepository } from '@doable/sync-domain';
import { forEachEntry, idArg, parseArgs } from '../../command-args';
import { colorName } from '../../colors';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { assertNameFree, loadLabel } from './label-access';
import { recordObjectEvents, withChanges } from '../../object-events';
import { labelChange } from './label-events';
import { DATA_DELETE, LABEL_ADD_ARGS, LABEL_UPDATE_ARGS, labelNameArg as name, ownObjects } from '@doable/contracts-sync';

const orderMapping = z.record(z.string(), storedInteger);

/*
 * Labels are personal: the acting user's rows only. Tasks hold label names, so renaming or
 * deleting a label rewrites the names on the tasks the user can see, stamping those tasks with
 * the command's version and touching their projects so every member sees the change.
 */

/**
 * Whether label_add was refused by the plan (no `labels` feature, or max_labels reached) rather
 * than by its arguments: quick add then keeps the name on its task without a personal label.
 */
export function isLabelPlanRefusal(error: unknown): boolean {
  return error instanceof DomainError && (error.code === 'MAX_LABELS_LIMIT_REACHED' || (error.code === 'FEATURE_NOT_IN_PLAN' && error.extra['feature'] === 'labels'));
}

/**
 * label_add (+temp_id): at the end of the user's labels unless an order is given. Personal
 * labels need the plan's `labels` feature and count against its max_labels; label names on
 * tasks do not (tasks carry any names, as on the public service).
 */
@Injectable()
export class LabelAddCommand implements CommandHandler {
  readonly type = 'label_add';
  readonly policy = ownObjects({ quantity: 'max_labels' });
  private readonly schema = z.object(LABEL_ADD_ARGS);

  constructor(private readonly labels: LabelRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    await context.plan.requireFeature('labels');
    await assertNameFree(this.labels, context, args.name);
    await context.plan.requireRoom('max_labels', { planOf: context.userId, count: () => this.labels.countActive(context.tx.manager, context.userId) });
    const label = await this.labels.insert(
      context.tx.manager,
      {
        userId: context.userId,
        name: args.name,
        color: args.color === undefined ? 'charcoal' : colorName(args.color),
        itemOrder: args.item_order ?? null,
        isFavorite: args.is_favorite ?? false,
      },
      context.version,
    );
    await recordObjectEvents(context, [labelChange(label, 'added')]);
    return { createdId: label.id };
  }
}

/** label_update: a new name is carried onto the user's tasks too. */
@Injectable()
export class LabelUpdateCommand implements CommandHandler {
  readonly type = 'label_update';
  readonly policy = ownObjects();
  private readonly schema = z.object({ id: idArg, ...LABEL_UPDATE_ARGS });

  constructor(private readonly labels: LabelRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const label = await loadLabel(this.labels, context, args.id);
    const newName = args.name !== undefined && args.name !== label.name ? args.name : undefined;
    if (newName !== undefined) await assertNameFree(this.labels, context, newName, label.id);
    const changes = {
      name: newName,
      color: args.color === undefined ? undefined : colorName(args.color),
      item_order: args.item_order,
      is_favorite: args.is_favorite,
    };
    await this.labels.update(context.tx.manager, label.id, changes, context.version);
    await recordObjectEvents(context, [labelChange(withChanges(label, changes), 'updated', newName === undefined ? {} : { last_name: label.name })]);
    if (newName !== undefined) context.touch(...(await this.labels.renameOnTasks(context.tx.manager, context.userId, label.name, newName, context.version)));
    return {};
  }
}

/** label_delete: `cascade` all (default) takes the name off the user's tasks; none leaves it there as a shared label. */
@Injectable()
export class LabelDeleteCommand implements CommandHandler {
  readonly type = 'label_delete';
  readonly policy = ownObjects({ scopes: DATA_DELETE });
  private readonly schema = z.object({ id: idArg, cascade: z.enum(['all', 'none']).default('all') });

  constructor(private readonly labels: LabelRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const label = await loadLabel(this.labels, context, args.id);
    await this.labels.update(context.tx.manager, label.id, { is_deleted: true }, context.version);
    await recordObjectEvents(context, [labelChange({ ...label, is_deleted: true }, 'deleted')]);
    if (args.cascade === 'all') context.touch(...(await this.labels.removeFromTasks(context.tx.manager, context.userId, label.name, context.version)));
    return {};
  }
}

/** label_update_orders: new positions, each label on its own (a refused id leaves the others applied). */
@Injectable()
export class LabelUpdateOrdersCommand implements CommandHandler {
  readonly type = 'label_update_orders';
  readonly policy = ownObjects();
  private readonly schema = z.object({ id_order_mapping: orderMapping });

  constructor(private readonly labels: LabelRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const entries = Object.entries(parseArgs(this.schema, rawArgs).id_order_mapping).map(([id, order]) => [id, { id, order }] as const);
    return forEachEntry(context, entries, async ({ id, order }) => {
      const label = await loadLabel(this.labels, context, id, 'id_order_mapping');
      await this.labels.update(context.tx.manager, label.id, { item_order: order }, context.version);
      // A reorder is an update of each label it moves (label:updated).
      if (label.item_order !== order) await recordObjectEvents(context, [labelChange({ ...label, item_order: order }, 'updated')]);
    });
  }
}

/** label_rename: a name on the user's tasks (shared or personal), and the personal label of that name if there is one. */
@Injectable()
export class LabelRenameCommand implements CommandHandler {
  readonly type = 'label_rename';
  readonly policy = ownObjects();
  private readonly schema = z.object({ name_old: name, name_new: name });

  constructor(private readonly labels: LabelRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    if (args.name_old === args.name_new) return {};
    const personal = await this.labels.findByNameForUpdate(context.tx.manager, context.userId, args.name_old);
    if (personal) {
      await assertNameFree(this.labels, context, args.name_new, personal.id);
      await this.labels.update(context.tx.manager, personal.id, { name: args.name_new }, context.version);
      await recordObjectEvents(context, [labelChange({ ...personal, name: args.name_new }, 'updated', { last_name: args.name_old })]);
    }
    context.touch(...(await this.labels.renameOnTasks(context.tx.manager, context.userId, args.name_old, args.name_new, context.version)));
    return {};
  }
}

/** label_delete_occurrences: the name comes off the user's tasks; a personal label of that name stays. */
@Injectable()
export class LabelDeleteOccurrencesCommand implements CommandHandler {
  readonly type = 'label_delete_occurrences';
  readonly policy = ownObjects({ scopes: DATA_DELETE });
  private readonly schema = z.object({ name });

  constructor(private readonly labels: LabelRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    context.touch(...(await this.labels.removeFromTasks(context.tx.manager, context.userId, args.name, context.version)));
    return {};
  }
}

export const LABEL_COMMANDS = [LabelAddCommand, LabelUpdateCommand, LabelDeleteCommand, LabelUpdateOrdersCommand, LabelRenameCommand, LabelDeleteOccurrencesCommand];
