import type { StoredDue } from '../items/item.model';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

export type ReminderType = 'relative' | 'absolute' | 'location';
export type LocationTrigger = 'on_enter' | 'on_leave';
/** The delivery service a legacy client (v8, v7, v6) may name; later versions have none. */
export type ReminderService = 'default' | 'email' | 'mobile' | 'push' | 'no_default';

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

export const REMINDER_COLUMNS = `id::text, project_id::text, item_id::text, notify_uid::text, type, due, minute_offset, is_urgent, name, loc_lat,
  loc_long, loc_trigger, radius, service, is_deleted, added_at, updated_at, version::text`;

/** REMINDER_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const REMINDER_WIRE_COLUMNS = withWireTimestamps(REMINDER_COLUMNS, ['added_at', 'updated_at']);

/** A reminder read with REMINDER_WIRE_COLUMNS. */
export type WireReminder = WireTimestamps<Reminder, 'added_at' | 'updated_at'>;

/** A reminder as the writers take it: timestamps as Dates, or already in wire text. */
export type ReminderRow = Reminder | WireReminder;
