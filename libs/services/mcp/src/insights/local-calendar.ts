import { DateTime } from 'luxon';

/**
 * "Now" as the user sees it: the instant and their time zone (the account's `tz_info`), so a
 * day, "overdue" or "the last 7 days" mean the days on the user's calendar, not UTC's.
 */
export interface Clock {
  readonly now: Date;
  readonly timezone: string;
}

/** An unknown zone name (or none) counts as UTC rather than failing the figures. */
export function clockOf(now: Date, timezone: unknown): Clock {
  const zone = typeof timezone === 'string' && timezone !== '' && DateTime.now().setZone(timezone).isValid ? timezone : 'UTC';
  return { now, timezone: zone };
}

/** The calendar day (YYYY-MM-DD) an instant falls on for the user. */
export function localDay(instant: Date | string, clock: Clock): string {
  const at = typeof instant === 'string' ? DateTime.fromISO(instant, { zone: 'utc' }) : DateTime.fromJSDate(instant);
  return at.setZone(clock.timezone).toISODate() ?? '';
}

/** The user's day `offset` days from today (negative: earlier). */
export function dayFromToday(clock: Clock, offset: number): string {
  return DateTime.fromJSDate(clock.now).setZone(clock.timezone).plus({ days: offset }).toISODate() ?? '';
}

/**
 * Whether a due date has passed: a date-only due is late from the next day on; a due with a time
 * once that time is past (a floating time is read on the user's clock, a `Z` one as written).
 */
export function isPast(due: string, clock: Clock): boolean {
  if (!due.includes('T')) return due < dayFromToday(clock, 0);
  const fixed = /(?:Z|[+-]\d{2}:\d{2})$/.test(due);
  const at = fixed ? DateTime.fromISO(due) : DateTime.fromISO(due, { zone: clock.timezone });
  return at.isValid && at.toMillis() < clock.now.getTime();
}
