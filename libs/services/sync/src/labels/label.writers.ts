import type { DialectWriters } from '../read/resource-source';
import type { Label } from './label.model';

/**
 * A personal label in each dialect. v9 names the position `item_order`; the v1 SDKs' label
 * schema requires `order` (nullable), and the unified API documents `item_order`, so v1
 * carries both (the SDK drops keys it does not know).
 */
export const LABEL_WRITERS: DialectWriters<Label> = {
  'sync-v9': (label) => ({
    id: label.id,
    name: label.name,
    color: label.color,
    item_order: label.item_order,
    is_deleted: label.is_deleted,
    is_favorite: label.is_favorite,
  }),
  'sync-api-v1': (label) => ({
    id: label.id,
    name: label.name,
    color: label.color,
    order: label.item_order,
    item_order: label.item_order,
    is_deleted: label.is_deleted,
    is_favorite: label.is_favorite,
  }),
};
