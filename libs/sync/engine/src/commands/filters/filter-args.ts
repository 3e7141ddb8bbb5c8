import type { FILTER_ADD_ARGS, FILTER_UPDATE_ARGS } from '@doable/contracts-sync';
import type { z } from 'zod';
import type { FilterFields } from '@doable/sync-domain';
import { colorName } from '../../colors';

/*
 * The fields a saved filter takes, a user's own (filter_*) and a workspace's (workspace_filter_*)
 * alike, are the filter table's arguments (FILTER_ADD_ARGS, FILTER_UPDATE_ARGS); here is what
 * a command stores of them.
 */
type FilterFieldArgs = z.infer<z.ZodObject<typeof FILTER_ADD_ARGS>>;
type FilterChangeArgs = z.infer<z.ZodObject<typeof FILTER_UPDATE_ARGS>>;

/** What an add stores: charcoal unless a colour is given, after the last filter unless an order is. */
export function newFilterFields(args: FilterFieldArgs): FilterFields {
  const color = args.color === undefined ? 'charcoal' : colorName(args.color);
  return { name: args.name, query: args.query, description: args.description ?? null, color, itemOrder: args.item_order ?? null, isFavorite: args.is_favorite ?? false };
}

/** What an update changes: the fields it was sent (undefined ones are left as they are). */
export function filterChanges(args: FilterChangeArgs) {
  const color = args.color === undefined ? undefined : colorName(args.color);
  return { name: args.name, query: args.query, description: args.description, color, item_order: args.item_order, is_favorite: args.is_favorite };
}
