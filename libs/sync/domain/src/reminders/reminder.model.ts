import { type LOCATION_TRIGGERS, REMINDER_FIELDS, type REMINDER_SERVICES, type REMINDER_TYPES } from '@doable/contracts-sync';
import type { StoredDue } from '../items/item.model';
import { type Follows, type RowFollowsTable, selectList, timestampColumns, type TimestampField } from '../persistence/field-columns';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/** A reminder's stored values are the reminder table's. */
export type ReminderType = (typeof REMINDER_TYPES)[number];
export type LocationTrigger = (typeof LOCATION_TRIGGERS)[number];
/** The delivery service a legacy client (v8, v7, v6) may name; later versions have none. */
export type ReminderService = (typeof REMINDER_SERVICES)[number];

/** The columns a command sets; each reminder type uses its own subset. */
export interface ReminderFields {
  notify_uid: string;
  type: ReminderType;
  due: StoredDue | null;
  minute_offset: number | null;
  is_urgent: boolean;
  name: string | null;
  loc_lat: string | null;
  loc_long: string | null;
  loc_trigger: LocationTrigger | null;
  radius: number | null;
  /** As a legacy client sent it (null when none did); only the legacy generations render it. */
  service: ReminderService | null;
}

/**
 * A reminder on a task. Time reminders are `relative` (minute_offset before the task's due,
 * which must have a time) or `absolute` (their own due, with a time); `location` reminders
 * fire on entering or leaving a place and are read only through `reminders_location`.
 *
 * As stored: the fields a command sets, plus where it lives and its sync state.
 */
export interface Reminder extends ReminderFields {
  id: string;
  /** The task's project (kept in step with the task by the notes-and-reminders migration). */
  project_id: string;
  item_id: string;
  is_deleted: boolean;
  added_at: Date;
  updated_at: Date;
  version: string;
}

/** Reminder has a key for each column of the reminder table (but the reminder service's own), and every key of it is a line of it: a compile error otherwise. */
export type ReminderFollowsTheTable = Follows<RowFollowsTable<Reminder, typeof REMINDER_FIELDS>>;

/** The stored columns of a reminder, from the reminder field table. */
export const REMINDER_COLUMNS = selectList(REMINDER_FIELDS);

/** REMINDER_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const REMINDER_WIRE_COLUMNS = withWireTimestamps(REMINDER_COLUMNS, timestampColumns(REMINDER_FIELDS));

/** A reminder read with REMINDER_WIRE_COLUMNS. */
export type WireReminder = WireTimestamps<Reminder, TimestampField<typeof REMINDER_FIELDS>>;

/** A reminder as the writers take it: timestamps as Dates, or already in wire text. */
export type ReminderRow = Reminder | WireReminder;
