import type { Due } from '../api/sync-types';

/**
 * The zone the person's days are counted in: the account's (issue #47: Today, Upcoming and the
 * dates agree with the server, which reads due dates, reminders and the digest in it), the
 * browser's until the first sync names it. Set by main.tsx from the synced user.
 */
let dayZone: string | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;

export function setDayZone(zone: string | undefined): void {
  if (zone === dayZone) return;
  try {
    dayFormat = zone ? new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }) : undefined;
    dayZone = zone;
  } catch {
    // A zone this browser does not know: its own zone stands in.
    dayFormat = undefined;
    dayZone = undefined;
  }
}

/** YYYY-MM-DD of a moment in the account's zone (the browser's until it is known). */
export function localDay(moment: Date): string {
  if (dayFormat) return dayFormat.format(moment);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

/** A calendar day `days` later: arithmetic on the date alone, so no zone can shift it. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

/**
 * The day a due falls on for this person: a full-day or floating date is read as written; a
 * fixed one (ending in Z) is an instant, shown on the day it happens in the account's zone.
 */
export function dueDay(due: Due | null | undefined): string | null {
  if (!due?.date) return null;
  if (due.date.endsWith('Z')) return localDay(new Date(due.date));
  return due.date.slice(0, 10);
}
