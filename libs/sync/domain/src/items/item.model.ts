import { columnsOf, type FieldTable, type StoredRow, TASK_FIELDS } from '@doable/contracts-sync';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/** The canonical due object (see dates/): stored as JSON, rendered by each dialect. */
export interface StoredDue {
  date: string;
  timezone: string | null;
  string: string;
  lang: string;
  is_recurring: boolean;
}

/**
 * A task as the domain stores it: its columns from the task field table (a new line is a new key
 * here with no edit), with the shapes a jsonb column cannot say written out.
 */
export interface Item extends Omit<StoredRow<typeof TASK_FIELDS>, 'due' | 'deadline' | 'duration'> {
  due: StoredDue | null;
  deadline: { date: string; lang: string } | null;
  duration: { amount: number; unit: 'minute' | 'day' } | null;
  /** Comments on the task, where a read counted them (api/v1 `note_count`). */
  note_count?: number;
}

/** A task field table's stored columns as a SELECT list: ids read as text (the domain's ids are strings). */
export function itemColumns(table: FieldTable): string {
  return columnsOf(table)
    .map((column) => (column.type === 'bigint' ? `${column.name}::text` : column.name))
    .join(', ');
}

/** The stored columns of a task, from the task field table. */
export const ITEM_COLUMNS = itemColumns(TASK_FIELDS);

type Lines = typeof TASK_FIELDS;

/**
 * ITEM_COLUMNS for reads that only write the tasks out (the object queries behind REST, a full
 * sync): the timestamps come as wire text, so the pg driver parses no Date and the writers
 * format none (12% of the sync service's CPU on a 1,000-task filter).
 */
export const ITEM_WIRE_COLUMNS = withWireTimestamps(
  ITEM_COLUMNS,
  columnsOf(TASK_FIELDS).flatMap((column) => (column.type === 'timestamptz' ? [column.name] : [])),
);

/** The task's timestamp columns, from its table. */
type TimestampField = { [F in keyof Lines]: Lines[F]['column'] extends { readonly type: 'timestamptz' } ? F : never }[keyof Lines] & keyof Item;

/** A task read with ITEM_WIRE_COLUMNS. */
export type WireItem = WireTimestamps<Item, TimestampField>;

/** A task as the writers take it: timestamps as Dates, or already in wire text. */
export type ItemRow = Item | WireItem;
