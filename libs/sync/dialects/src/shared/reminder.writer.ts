import type { ReminderRow } from '@doable/sync-domain';
import { writeDue } from './item-fields';

/**
 * A reminder as the SDK's ReminderSchema union reads it (v9 and api/v1 alike): the common
 * `id, notify_uid, item_id, project_id, is_deleted, type`, then per type `due` (absolute,
 * required and non-null in sdk 10.5/11), `minute_offset` (relative; its `due` is optional but
 * non-null in sdk 10.5/11, so the key is left out), or `name, loc_lat, loc_long, loc_trigger,
 * radius` (location).
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
      return { ...common, due: writeDue(reminder.due), is_urgent: reminder.is_urgent };
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
