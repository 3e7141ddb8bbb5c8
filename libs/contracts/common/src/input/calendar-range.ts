import { z } from 'zod';

/**
 * The one date rule: every date or instant a client sends (due, deadline, completion dates,
 * reminders, `since`/`until`, filter dates) lies between 0001-01-01 and 9999-12-31.
 *
 * Why these bounds: the wire format is ISO 8601 with four-digit years (`YYYY-MM-DD`), and year
 * 0000 is not a date PostgreSQL's `date`/`timestamp` accept (they count 1 BC, 1 AD). It is also
 * what the clients can hold: Python's `datetime` (the official Python SDK) is limited to years
 * 1-9999, and a five-digit year cannot be written in the four-digit wire format at all.
 */
export const MIN_CALENDAR_YEAR = 1;
export const MAX_CALENDAR_YEAR = 9999;

export function isCalendarYear(year: number): boolean {
  return Number.isInteger(year) && year >= MIN_CALENDAR_YEAR && year <= MAX_CALENDAR_YEAR;
}

/** Whether an instant lies in the calendar range (an invalid Date does not). */
export function isInCalendarRange(instant: Date): boolean {
  const time = instant.getTime();
  return !Number.isNaN(time) && isCalendarYear(instant.getUTCFullYear());
}

export const CALENDAR_RANGE_MESSAGE = `Dates must lie between ${String(MIN_CALENDAR_YEAR).padStart(4, '0')}-01-01 and ${MAX_CALENDAR_YEAR}-12-31`;

/** An ISO 8601 instant with a zone or offset, inside the calendar (completion times, `since`/`until`). */
export const calendarInstantSchema = z.iso.datetime({ offset: true }).refine((value) => isInCalendarRange(new Date(value)), CALENDAR_RANGE_MESSAGE);
