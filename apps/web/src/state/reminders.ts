import type { CommandArgs, Item, Reminder, SyncData } from '../api/sync-types';

/** The offsets offered before a due time (minutes); the server takes any from 0 to a year. */
export const RELATIVE_CHOICES = [0, 5, 10, 15, 30, 60, 120, 1440] as const;

/** Where a reminder sorts: relative ones by offset, then absolute ones by time, then places by name. */
function sortKey(reminder: Reminder): string {
  if (reminder.type === 'relative') return `0${String(reminder.minute_offset ?? 0).padStart(6, '0')}`;
  if (reminder.type === 'absolute') return `1${reminder.due?.date ?? ''}`;
  return `2${reminder.name ?? ''}`;
}

/** A task's reminders: relative ones by offset, then absolute ones by time, then location ones by place. */
export function remindersOf(data: SyncData, itemId: string): Reminder[] {
  return [...data.reminders.values()].filter((reminder) => reminder.item_id === itemId).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
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
  if (reminder.type === 'location') {
    const place = `${reminder.name || 'a place'} (${reminder.loc_lat ?? '?'}, ${reminder.loc_long ?? '?'}, within ${reminder.radius ?? 100} m)`;
    return reminder.loc_trigger === 'on_leave' ? `When I leave ${place}` : `When I arrive at ${place}`;
  }
  const date = reminder.due?.date;
  return date ? `At ${date.slice(0, 16).replace('T', ' ')}` : `At ${reminder.due?.string ?? 'a set time'}`;
}

/** A relative reminder counts back from the due time: the server refuses one on a task with no time of day. */
export function dueHasTime(item: Item): boolean {
  return item.due?.date.includes('T') === true;
}

export type LocationTrigger = 'on_enter' | 'on_leave';

/** A place as typed: the numbers as the inputs hold them, checked by locationArgs. */
export interface PlaceChoice {
  kind: 'location';
  name: string;
  lat: string;
  long: string;
  radius: string;
  trigger: LocationTrigger;
}

export type ReminderChoice = { kind: 'relative'; minutes: number } | { kind: 'absolute'; dateTime: string } | PlaceChoice;

/** A decimal the server reads as a coordinate (it takes no exponent, no leading "+" or "."). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const MAX_RADIUS_M = 1_000_000;

/**
 * A location reminder's args, by the server's rules (reminder_add: name, loc_lat −90…90 and
 * loc_long −180…180 as decimal strings, radius whole metres from 1, loc_trigger on_enter or
 * on_leave), or the reason it would be refused.
 */
function locationArgs(item: Item, place: PlaceChoice): { args: CommandArgs['reminder_add'] } | { error: string } {
  const name = place.name.trim();
  if (!name) return { error: 'Name the place.' };
  if (name.length > 255) return { error: 'The place name is too long (at most 255 characters).' };
  const lat = place.lat.trim();
  if (!DECIMAL.test(lat) || lat.length > 32 || Math.abs(Number(lat)) > 90) return { error: 'The latitude is a number from -90 to 90.' };
  const long = place.long.trim();
  if (!DECIMAL.test(long) || long.length > 32 || Math.abs(Number(long)) > 180) return { error: 'The longitude is a number from -180 to 180.' };
  const radius = Number(place.radius.trim());
  if (!/^\d+$/.test(place.radius.trim()) || radius < 1 || radius > MAX_RADIUS_M) return { error: 'The radius is a whole number of metres, more than 0.' };
  if (place.trigger !== 'on_enter' && place.trigger !== 'on_leave') return { error: 'Choose when I arrive or when I leave.' };
  return { args: { item_id: item.id, type: 'location', name, loc_lat: lat, loc_long: long, radius, loc_trigger: place.trigger } };
}

/**
 * reminder_add's args for a choice, or the reason it cannot be sent. A place needs no due. The absolute time is the
 * browser's `datetime-local` value (no zone): the server reads a floating time in the person's
 * own time zone, as it does a due typed without one.
 */
export function reminderAddArgs(item: Item, choice: ReminderChoice): { args: CommandArgs['reminder_add'] } | { error: string } {
  if (choice.kind === 'location') return locationArgs(item, choice);
  if (choice.kind === 'relative') {
    if (!dueHasTime(item)) return { error: 'A reminder before the due needs a due date with a time. Set one, or choose a date and time.' };
    if (!Number.isInteger(choice.minutes) || choice.minutes < 0) return { error: 'Choose how long before the due time.' };
    return { args: { item_id: item.id, type: 'relative', minute_offset: choice.minutes } };
  }
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(choice.dateTime);
  if (!match) return { error: 'Choose a date and a time.' };
  return { args: { item_id: item.id, type: 'absolute', due: { date: `${match[1]}T${match[2]}${match[3] ?? ':00'}` } } };
}
