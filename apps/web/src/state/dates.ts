import type { Due } from '../api/sync-types';

/** YYYY-MM-DD of a moment in the browser's time zone. */
export function localDay(moment: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return localDay(new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days));
}

/**
 * The day a due falls on for this person: a full-day or floating date is read as written; a
 * fixed one (ending in Z) is an instant, shown on the local day it happens.
 */
export function dueDay(due: Due | null | undefined): string | null {
  if (!due?.date) return null;
  if (due.date.endsWith('Z')) return localDay(new Date(due.date));
  return due.date.slice(0, 10);
}
