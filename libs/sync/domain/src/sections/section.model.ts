import { SECTION_FIELDS } from '@doable/contracts-sync';
import { type Follows, type RowFollowsTable, selectList, timestampColumns, type TimestampField } from '../persistence/field-columns';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

export interface Section {
  id: string;
  user_id: string;
  project_id: string;
  name: string;
  description: string | null;
  section_order: number;
  is_collapsed: boolean;
  is_archived: boolean;
  is_deleted: boolean;
  archived_at: Date | null;
  added_at: Date;
  updated_at: Date;
  version: string;
}

/** Section has a key for each column of the section table, and every key of it is a line of it: a compile error otherwise. */
export type SectionFollowsTheTable = Follows<RowFollowsTable<Section, typeof SECTION_FIELDS>>;

/** The stored columns of a section, from the section field table. */
export const SECTION_COLUMNS = selectList(SECTION_FIELDS);

/** SECTION_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const SECTION_WIRE_COLUMNS = withWireTimestamps(SECTION_COLUMNS, timestampColumns(SECTION_FIELDS));

/** A section read with SECTION_WIRE_COLUMNS. */
export type WireSection = WireTimestamps<Section, TimestampField<typeof SECTION_FIELDS>>;

/** A section as the writers take it: timestamps as Dates, or already in wire text. */
export type SectionRow = Section | WireSection;
