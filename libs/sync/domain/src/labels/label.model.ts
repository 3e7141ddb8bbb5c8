import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

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

/** LABEL_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const LABEL_WIRE_COLUMNS = withWireTimestamps(LABEL_COLUMNS, ['created_at', 'updated_at']);

/** A label read with LABEL_WIRE_COLUMNS. */
export type WireLabel = WireTimestamps<Label, 'created_at' | 'updated_at'>;

/** A label as the writers take it: timestamps as Dates, or already in wire text. */
export type LabelRow = Label | WireLabel;
