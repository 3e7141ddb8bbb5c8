import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { DATA_DELETE, FILTER_ADD_ARGS, FILTER_UPDATE_ARGS, ownObjects } from '@doable/contracts-sync';
import { z } from 'zod';
import { FilterRepository } from '@doable/sync-domain';
import { forEachEntry, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
// The same fields, bounds and colours for a user's own filters and a workspace's.
import { filterChanges, newFilterFields } from './filter-args';
import { loadFilter } from './filter-access';
import { recordObjectEvents, withChanges } from '../../object-events';
import { filterChange } from './filter-events';

/**
 * filter_add (+temp_id): at the end of the user's filters unless an order is given. Needs the
 * plan's `filters` feature and room under its max_filters; the filters a user already has stay
 * theirs to change and delete whatever their plan becomes.
 */
@Injectable()
export class FilterAddCommand implements CommandHandler {
  readonly type = 'filter_add';
  readonly policy = ownObjects({ quantity: 'max_filters' });
  private readonly schema = z.object(FILTER_ADD_ARGS);

  constructor(private readonly filters: FilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    await context.plan.requireFeature('filters');
    await context.plan.requireRoom('max_filters', { planOf: context.userId, count: () => this.filters.countActive(context.tx.manager, context.userId) });
    const filter = await this.filters.insert(context.tx.manager, { userId: context.userId, ...newFilterFields(args) }, context.version);
    await recordObjectEvents(context, [filterChange(filter, 'added')]);
    return { createdId: filter.id };
  }
}

/** filter_update: any of the fields filter_add takes. */
@Injectable()
export class FilterUpdateCommand implements CommandHandler {
  readonly type = 'filter_update';
  readonly policy = ownObjects();
  private readonly schema = z.object({ id: idArg, ...FILTER_UPDATE_ARGS });

  constructor(private readonly filters: FilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const filter = await loadFilter(this.filters, context, args.id);
    const changes = filterChanges(args);
    await this.filters.update(context.tx.manager, filter.id, changes, context.version);
    await recordObjectEvents(context, [filterChange(withChanges(filter, changes), 'updated', args.name !== undefined && args.name !== filter.name ? { last_name: filter.name } : {})]);
    return {};
  }
}

/** filter_delete: the filter becomes a tombstone. */
@Injectable()
export class FilterDeleteCommand implements CommandHandler {
  readonly type = 'filter_delete';
  readonly policy = ownObjects({ scopes: DATA_DELETE });
  private readonly schema = z.object({ id: idArg });

  constructor(private readonly filters: FilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const filter = await loadFilter(this.filters, context, parseArgs(this.schema, rawArgs).id);
    await this.filters.update(context.tx.manager, filter.id, { is_deleted: true }, context.version);
    await recordObjectEvents(context, [filterChange({ ...filter, is_deleted: true }, 'deleted')]);
    return {};
  }
}

/** filter_update_orders: new positions, each filter on its own (a refused id leaves the others applied). */
@Injectable()
export class FilterUpdateOrdersCommand implements CommandHandler {
  readonly type = 'filter_update_orders';
  readonly policy = ownObjects();
  private readonly schema = z.object({ id_order_mapping: z.record(z.string(), storedInteger) });

  constructor(private readonly filters: FilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const entries = Object.entries(parseArgs(this.schema, rawArgs).id_order_mapping).map(([id, order]) => [id, { id, order }] as const);
    return forEachEntry(context, entries, async ({ id, order }) => {
      const filter = await loadFilter(this.filters, context, id, 'id_order_mapping');
      await this.filters.update(context.tx.manager, filter.id, { item_order: order }, context.version);
      // A reorder is an update of each filter it moves (filter:updated).
      if (filter.item_order !== order) await recordObjectEvents(context, [filterChange({ ...filter, item_order: order }, 'updated')]);
    });
  }
}

export const FILTER_COMMANDS = [FilterAddCommand, FilterUpdateCommand, FilterDeleteCommand, FilterUpdateOrdersCommand];
