import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/** A saved search of one user: a name for a query the clients evaluate. */
export interface Filter {
  id: string;
  user_id: string;
  name: string;
  query: string;
  description: string | null;
  color: string;
  item_order: number;
  is_favorite: boolean;
  is_deleted: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export const FILTER_COLUMNS = `id::text, user_id::text, name, query, description, color, item_order, is_favorite, is_deleted, created_at, updated_at, version::text`;

/** FILTER_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const FILTER_WIRE_COLUMNS = withWireTimestamps(FILTER_COLUMNS, ['created_at', 'updated_at']);

/** A filter read with FILTER_WIRE_COLUMNS. */
export type WireFilter = WireTimestamps<Filter, 'created_at' | 'updated_at'>;

/** A filter as the writers take it: timestamps as Dates, or already in wire text. */
export type FilterRow = Filter | WireFilter;
