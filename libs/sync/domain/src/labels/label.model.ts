/** A personal label: the owner's colour, order and favourite flag for a name used on tasks. */
export interface Label {
  id: string;
  user_id: string;
  name: string;
  color: string;
  item_order: number;
  is_favorite: boolean;
  is_deleted: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export const LABEL_COLUMNS = `id::text, user_id::text, name, color, item_order, is_favorite, is_deleted, created_at, updated_at, version::text`;
