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

export const SECTION_COLUMNS = `id::text, user_id::text, project_id::text, name, description, section_order, is_collapsed, is_archived,
  is_deleted, archived_at, added_at, updated_at, version::text`;

/** SECTION_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const SECTION_WIRE_COLUMNS = withWireTimestamps(SECTION_COLUMNS, ['archived_at', 'added_at', 'updated_at']);

/** A section read with SECTION_WIRE_COLUMNS. */
export type WireSection = WireTimestamps<Section, 'archived_at' | 'added_at' | 'updated_at'>;

/** A section as the writers take it: timestamps as Dates, or already in wire text. */
export type SectionRow = Section | WireSection;
