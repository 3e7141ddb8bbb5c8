import type { ReminderRow } from '@doable/sync-domain';
import { writeDue } from './item-fields';

/**
 * A reminder as api/v1 writes it, for the SDK's ReminderSchema union: the common
 * `id, notify_uid, item_id, project_id, is_deleted, type`, then per type:
 * - absolute: `due` (required and non-null in sdk 10.5/11) and `minute_offset: null` (the spec's
 *   reminder has both keys; the SDK's loose absolute member passes the extra key through);
 * - relative: `minute_offset`, and no `due` key: sdk 10.5/11 declare it optional but non-null,
 *   so the spec's `due: null` would fail their sync() (only sdk 17 accepts it). v9, which no
 *   validating client reads, writes it (writeV9Reminder);
 * - location: `name, loc_lat, loc_long, loc_trigger, radius`.
 */
export function writeReminder(reminder: ReminderRow): Record<string, unknown> {
  const common = {
    id: reminder.id,
    notify_uid: reminder.notify_uid,
    item_id: reminder.item_id,
    project_id: reminder.project_id,
    is_deleted: reminder.is_deleted,
    type: reminder.type,
  };
  switch (reminder.type) {
    case 'absolute':
      return { ...common, due: writeDue(reminder.due), minute_offset: null, is_urgent: reminder.is_urgent };
    case 'relative':
      return { ...common, minute_offset: reminder.minute_offset ?? 0, is_urgent: reminder.is_urgent };
    case 'location':
      return {
        ...common,
        name: reminder.name ?? '',
        loc_lat: reminder.loc_lat ?? '0',
        loc_long: reminder.loc_long ?? '0',
        loc_trigger: reminder.loc_trigger ?? 'on_enter',
        radius: reminder.radius ?? 0,
      };
  }
}

/**
 * A reminder as v9 writes it: api/v1's, with the spec's both time keys on each time reminder (a
 * relative one's `due` is null: it fires by its task's due). v9's readers (the community
 * `todoist` client, the 2.x/3.x SDKs' quick add) do not validate reminders.
 */
export function writeV9Reminder(reminder: ReminderRow): Record<string, unknown> {
  const fields = writeReminder(reminder);
  return reminder.type === 'relative' ? { ...fields, due: null } : fields;
}
