import type { FilterRow, LabelRow } from '@doable/sync-domain';
import type { ApiLabel } from '@doable/contracts-sync';

/** A personal label as v9 writes it; api/v1 adds its SDKs' `order`. */
export function writeLabel(label: LabelRow): Omit<ApiLabel, 'order'> {
  return { id: label.id, name: label.name, color: label.color, item_order: label.item_order, is_deleted: label.is_deleted, is_favorite: label.is_favorite };
}

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
