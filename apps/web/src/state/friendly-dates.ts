import type { Due, SyncUser } from '../api/sync-types';
import { addDays, dueDay, localDay } from './dates';

/**
 * How a person reads dates, from their settings (the user object): `date_format` 0 writes the
 * day before the month (`Mon 30 Nov`), 1 the month first (`Mon Nov 30`); `time_format` 0 is the
 * 24-hour clock, 1 the 12-hour one; `start_day` 1 (Monday) … 7 (Sunday) begins a week.
 */
export interface DateSettings {
  readonly monthFirst: boolean;
  readonly twelveHour: boolean;
  readonly startDay: number;
}

export function dateSettings(user: SyncUser | null | undefined): DateSettings {
  const startDay = user?.start_day && user.start_day >= 1 && user.start_day <= 7 ? user.start_day : 1;
  return { monthFirst: user?.date_format === 1, twelveHour: user?.time_format === 1, startDay };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parts(day: string): { year: number; month: number; date: number; weekday: number } {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  // Noon UTC: the weekday of a calendar date, whatever the browser's zone.
  return { year, month, date, weekday: new Date(Date.UTC(year, month - 1, date, 12)).getUTCDay() };
}

/** ISO weekday (1 Monday … 7 Sunday) of a YYYY-MM-DD day. */
export function isoWeekday(day: string): number {
  return parts(day).weekday || 7;
}

/** `Mon 30 Nov` or `Mon Nov 30` (the year added when it is not this one). */
export function shortDate(day: string, today: string, settings: DateSettings): string {
  const { year, month, date, weekday } = parts(day);
  const monthName = MONTHS[month - 1] ?? '';
  const text = settings.monthFirst ? `${WEEKDAYS[weekday]} ${monthName} ${date}` : `${WEEKDAYS[weekday]} ${date} ${monthName}`;
  return year === parts(today).year ? text : `${text} ${year}`;
}

/** `Today`, `Tomorrow`, `Yesterday`, a weekday within the coming week, else the short date. */
export function friendlyDay(day: string, today: string, settings: DateSettings): string {
  if (day === today) return 'Today';
  if (day === addDays(today, 1)) return 'Tomorrow';
  if (day === addDays(today, -1)) return 'Yesterday';
  if (day > today && day < addDays(today, 7)) return LONG_WEEKDAYS[parts(day).weekday] ?? day;
  return shortDate(day, today, settings);
}

/** `17:00` or `5:00 PM`. */
export function clockTime(hours: number, minutes: number, settings: DateSettings): string {
  const mm = String(minutes).padStart(2, '0');
  if (!settings.twelveHour) return `${String(hours).padStart(2, '0')}:${mm}`;
  return `${hours % 12 === 0 ? 12 : hours % 12}:${mm} ${hours < 12 ? 'AM' : 'PM'}`;
}

/**
 * The time of day a due names, or null for a full-day due: a floating `…THH:MM:SS` as written,
 * a fixed one (`…Z`, an instant) in the browser's clock, like dueDay reads its day.
 */
export function dueTime(due: Due): { hours: number; minutes: number } | null {
  if (due.date.length <= 10) return null;
  if (due.date.endsWith('Z')) {
    const moment = new Date(due.date);
    return { hours: moment.getHours(), minutes: moment.getMinutes() };
  }
  const match = /T(\d{2}):(\d{2})/.exec(due.date);
  return match ? { hours: Number(match[1]), minutes: Number(match[2]) } : null;
}

/** A due as a row shows it: `Today`, `Tomorrow 17:00`, `Mon 30 Nov 9:30 AM`. */
export function friendlyDue(due: Due, today: string, settings: DateSettings): string {
  const day = dueDay(due);
  if (day === null) return due.string ?? '';
  const time = dueTime(due);
  const dayText = friendlyDay(day, today, settings);
  return time ? `${dayText} ${clockTime(time.hours, time.minutes, settings)}` : dayText;
}

/** A moment (an ISO instant: a completion, a comment) in the person's formats. */
export function friendlyMoment(iso: string, settings: DateSettings, now = new Date()): string {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return iso;
  return `${friendlyDay(localDay(moment), localDay(now), settings)} ${clockTime(moment.getHours(), moment.getMinutes(), settings)}`;
}

/** The first day of the week holding `day`, by the person's first weekday. */
export function weekStart(day: string, settings: DateSettings): string {
  const back = (isoWeekday(day) - settings.startDay + 7) % 7;
  return addDays(day, -back);
}
