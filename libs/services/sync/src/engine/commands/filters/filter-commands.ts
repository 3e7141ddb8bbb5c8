import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import type { FilterRepository } from '../../../filters/filter.repository';
import { parseArgs } from '../../command-args';
// The same fields, bounds and colours for a user's own filters and a workspace's.
import { filterColor as color, filterDescription as description, filterName as name, filterQuery as query } from './filter-args';
import { colorName } from '../../colors';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { flag, forEachEntry, idArg } from '../items/item-args';
import { loadFilter } from './filter-access';
import { recordObjectEvents, withChanges } from '../object-events';
import { filterChange } from './filter-events';
import { DATA_DELETE, ownObjects } from '@doable/contracts-sync';


/**
 * filter_add (+temp_id): at the end of the user's filters unless an order is given. Needs the
 * plan's `filters` feature and room under its max_filters; the filters a user already has stay
 * theirs to change and delete whatever their plan becomes.
 */
export class FilterAddCommand implements CommandHandler {
  readonly type = 'filter_add';
  readonly policy = ownObjects({ quantity: 'max_filters' });
  private readonly schema = z.object({ name, query, description, color, item_order: storedInteger.optional(), is_favorite: flag.optional() });

  constructor(private readonly filters: FilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    await context.plan.requireFeature('filters');
    await context.plan.requireRoom('max_filters', { planOf: context.userId, count: () => this.filters.countActive(context.tx.manager, context.userId) });
    const filter = await this.filters.insert(
      context.tx.manager,
      {
        userId: context.userId,
        name: args.name,
        query: args.query,
        description: args.description ?? null,
        color: args.color === undefined ? 'charcoal' : colorName(args.color),
        itemOrder: args.item_order ?? null,
        isFavorite: args.is_favorite ?? false,
      },
      context.version,
    );
    await recordObjectEvents(context, [filterChange(filter, 'added')]);
    return { createdId: filter.id };
  }
}

/** filter_update: any of the fields filter_add takes. */
export class FilterUpdateCommand implements CommandHandler {
  readonly type = 'filter_update';
  readonly policy = ownObjects();
  private readonly schema = z.object({ id: idArg, name: name.optional(), query: query.optional(), description, color, item_order: storedInteger.optional(), is_favorite: flag.optional() });

  constructor(private readonly filters: FilterRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const filter = await loadFilter(this.filters, context, args.id);
    const changes = {
      name: args.name,
      query: args.query,
      description: args.description,
      color: args.color === undefined ? undefined : colorName(args.color),
      item_order: args.item_order,
      is_favorite: args.is_favorite,
    };
    await this.filters.update(context.tx.manager, filter.id, changes, context.version);
    await recordObjectEvents(context, [filterChange(withChanges(filter, changes), 'updated', args.name !== undefined && args.name !== filter.name ? { last_name: filter.name } : {})]);
    return {};
  }
}

/** filter_delete: the filter becomes a tombstone. */
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

export function filterCommands(filters: FilterRepository): CommandHandler[] {
  return [new FilterAddCommand(filters), new FilterUpdateCommand(filters), new FilterDeleteCommand(filters), new FilterUpdateOrdersCommand(filters)];
}
