import { LABEL_FIELDS } from '@doable/contracts-sync';
import { type Follows, type RowFollowsTable, selectList, timestampColumns, type TimestampField } from '../persistence/field-columns';
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

/** Label has a key for each column of the label table, and every key of it is a line of it: a compile error otherwise. */
export type LabelFollowsTheTable = Follows<RowFollowsTable<Label, typeof LABEL_FIELDS>>;

/** The stored columns of a label, from the label field table. */
export const LABEL_COLUMNS = selectList(LABEL_FIELDS);

/** LABEL_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const LABEL_WIRE_COLUMNS = withWireTimestamps(LABEL_COLUMNS, timestampColumns(LABEL_FIELDS));

/** A label read with LABEL_WIRE_COLUMNS. */
export type WireLabel = WireTimestamps<Label, TimestampField<typeof LABEL_FIELDS>>;

/** A label as the writers take it: timestamps as Dates, or already in wire text. */
export type LabelRow = Label | WireLabel;
