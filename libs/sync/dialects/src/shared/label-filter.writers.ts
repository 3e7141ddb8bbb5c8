import type { FilterRow } from '@doable/sync-domain';

/**
 * A filter with every key the SDKs' sync filter schema requires, as v9 writes it; api/v1 adds the
 * optional `description`. No plan freezes filters yet, so none is frozen.
 */
export function writeFilter(filter: FilterRow): Record<string, unknown> {
  return {
    id: filter.id,
    name: filter.name,
    query: filter.query,
    color: filter.color,
    item_order: filter.item_order,
    is_deleted: filter.is_deleted,
    is_favorite: filter.is_favorite,
    is_frozen: false,
  };
}
