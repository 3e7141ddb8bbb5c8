import { FILTER_FIELDS } from '@doable/contracts-sync';
import { type Follows, type RowFollowsTable, selectList, timestampColumns, type TimestampField } from '../persistence/field-columns';
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

/** Filter has a key for each column of the filter table, and every key of it is a line of it: a compile error otherwise. */
export type FilterFollowsTheTable = Follows<RowFollowsTable<Filter, typeof FILTER_FIELDS>>;

/** The stored columns of a filter, from the filter field table. */
export const FILTER_COLUMNS = selectList(FILTER_FIELDS);

/** FILTER_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const FILTER_WIRE_COLUMNS = withWireTimestamps(FILTER_COLUMNS, timestampColumns(FILTER_FIELDS));

/** A filter read with FILTER_WIRE_COLUMNS. */
export type WireFilter = WireTimestamps<Filter, TimestampField<typeof FILTER_FIELDS>>;

/** A filter as the writers take it: timestamps as Dates, or already in wire text. */
export type FilterRow = Filter | WireFilter;
