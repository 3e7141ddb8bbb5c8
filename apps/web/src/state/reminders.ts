import type { Item, Reminder, SyncData } from '../api/sync-types';

/** The offsets offered before a due time (minutes); the server takes any from 0 to a year. */
export const RELATIVE_CHOICES = [0, 5, 10, 15, 30, 60, 120, 1440] as const;

/** A task's time reminders: relative ones by offset, then absolute ones by time. */
export function remindersOf(data: SyncData, itemId: string): Reminder[] {
  const sortKey = (reminder: Reminder) => (reminder.type === 'relative' ? `0${String(reminder.minute_offset ?? 0).padStart(6, '0')}` : `1${reminder.due?.date ?? ''}`);
  return [...data.reminders.values()].filter((reminder) => reminder.item_id === itemId && reminder.type !== 'location').sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
}

/** "30 minutes before", "1 hour before", "2 days before", "At the due time". */
export function offsetText(minutes: number): string {
  if (minutes === 0) return 'At the due time';
  const [amount, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'} before`;
}

/** What a screen reader and the list say of a reminder. */
export function describeReminder(reminder: Reminder): string {
  if (reminder.type === 'relative') return offsetText(reminder.minute_offset ?? 0);
  const date = reminder.due?.date;
  return date ? `At ${date.slice(0, 16).replace('T', ' ')}` : `At ${reminder.due?.string ?? 'a set time'}`;
}

/** A relative reminder counts back from the due time: the server refuses one on a task with no time of day. */
export function dueHasTime(item: Item): boolean {
  return item.due?.date.includes('T') === true;
}

export type ReminderChoice = { kind: 'relative'; minutes: number } | { kind: 'absolute'; dateTime: string };

/**
 * reminder_add's args for a choice, or the reason it cannot be sent. The absolute time is the
 * browser's `datetime-local` value (no zone): the server reads a floating time in the person's
 * own time zone, as it does a due typed without one.
 */
export function reminderAddArgs(item: Item, choice: ReminderChoice): { args: Record<string, unknown> } | { error: string } {
  if (choice.kind === 'relative') {
    if (!dueHasTime(item)) return { error: 'A reminder before the due needs a due date with a time. Set one, or choose a date and time.' };
    if (!Number.isInteger(choice.minutes) || choice.minutes < 0) return { error: 'Choose how long before the due time.' };
    return { args: { item_id: item.id, type: 'relative', minute_offset: choice.minutes } };
  }
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(choice.dateTime);
  if (!match) return { error: 'Choose a date and a time.' };
  return { args: { item_id: item.id, type: 'absolute', due: { date: `${match[1]}T${match[2]}${match[3] ?? ':00'}` } } };
}
