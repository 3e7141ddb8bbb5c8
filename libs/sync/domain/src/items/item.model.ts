import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/** The canonical due object (see dates/): stored as JSON, rendered by each dialect. */
export interface StoredDue {
  date: string;
  timezone: string | null;
  string: string;
  lang: string;
  is_recurring: boolean;
}

/** A task as the domain stores it. */
export interface Item {
  id: string;
  user_id: string;
  project_id: string;
  section_id: string | null;
  parent_id: string | null;
  content: string;
  description: string;
  priority: number;
  due: StoredDue | null;
  deadline: { date: string; lang: string } | null;
  duration: { amount: number; unit: 'minute' | 'day' } | null;
  labels: string[];
  child_order: number;
  day_order: number;
  is_collapsed: boolean;
  checked: boolean;
  in_history: boolean;
  is_deleted: boolean;
  added_by_uid: string | null;
  assigned_by_uid: string | null;
  responsible_uid: string | null;
  added_at: Date;
  completed_at: Date | null;
  updated_at: Date;
  version: string;
  /** Comments on the task, where a read counted them (api/v1 `note_count`). */
  note_count?: number;
}

export const ITEM_COLUMNS = `id::text, user_id::text, project_id::text, section_id::text, parent_id::text, content, description, priority,
  due, deadline, duration, labels, child_order, day_order, is_collapsed, checked, in_history, is_deleted, added_by_uid::text,
  assigned_by_uid::text, responsible_uid::text, added_at, completed_at, updated_at, version::text`;

/**
 * ITEM_COLUMNS for reads that only write the tasks out (the object queries behind REST, a full
 * sync): the timestamps come as wire text, so the pg driver parses no Date and the writers
 * format none (12% of the sync service's CPU on a 1,000-task filter).
 */
export const ITEM_WIRE_COLUMNS = withWireTimestamps(ITEM_COLUMNS, ['added_at', 'completed_at', 'updated_at']);

/** A task read with ITEM_WIRE_COLUMNS. */
export type WireItem = WireTimestamps<Item, 'added_at' | 'completed_at' | 'updated_at'>;

/** A task as the writers take it: timestamps as Dates, or already in wire text. */
export type ItemRow = Item | WireItem;
