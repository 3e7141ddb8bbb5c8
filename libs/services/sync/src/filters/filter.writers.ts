import type { DialectWriters } from '../read/resource-source';
import type { Filter } from './filter.model';

/**
 * A filter in each dialect: every key the SDK's sync filter schema requires. Doable has no
 * plan downgrades that freeze filters yet, so `is_frozen` is always false. v1 adds the
 * optional `description` the newer SDKs send.
 */
export const FILTER_WRITERS: DialectWriters<Filter> = {
  'sync-v9': (filter) => ({
    id: filter.id,
    name: filter.name,
    query: filter.query,
    color: filter.color,
    item_order: filter.item_order,
    is_deleted: filter.is_deleted,
    is_favorite: filter.is_favorite,
    is_frozen: false,
  }),
  'sync-api-v1': (filter) => ({
    id: filter.id,
    name: filter.name,
    query: filter.query,
    description: filter.description,
    color: filter.color,
    item_order: filter.item_order,
    is_deleted: filter.is_deleted,
    is_favorite: filter.is_favorite,
    is_frozen: false,
  }),
};
