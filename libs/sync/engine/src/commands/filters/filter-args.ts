import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { type FilterFields, PROJECT_COLORS } from '@doable/sync-domain';
import { colorName } from '../../colors';
import { flag } from '../../command-args';

/** The fields a saved filter takes, a user's own (filter_*) and a workspace's (workspace_filter_*) alike. */
export const filterName = z.string().trim().min(1).max(1_024);
// The query is stored as written: clients evaluate it, the server does not.
export const filterQuery = z.string().trim().min(1).max(4_096);
export const filterDescription = z.string().max(16_384).nullable().optional();
export const filterColor = z.union([z.enum(PROJECT_COLORS), storedInteger]).optional();

/** An add's fields, for both kinds' schemas; an update takes them all as optional (FILTER_CHANGES). */
export const FILTER_FIELDS = {
  name: filterName,
  query: filterQuery,
  description: filterDescription,
  color: filterColor,
  item_order: storedInteger.optional(),
  is_favorite: flag.optional(),
};
export const FILTER_CHANGES = { ...FILTER_FIELDS, name: filterName.optional(), query: filterQuery.optional() };

type FilterFieldArgs = z.infer<z.ZodObject<typeof FILTER_FIELDS>>;
type FilterChangeArgs = z.infer<z.ZodObject<typeof FILTER_CHANGES>>;

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
