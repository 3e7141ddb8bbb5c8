import { CALENDAR_RANGE_MESSAGE, isCalendarYear } from '@doable/contracts-common';
import { type DateArgument, invalidDateArgument } from './core/due-errors';

/**
 * Whether a stored date text (`YYYY-MM-DD`, a floating time or a UTC instant) lies in the
 * domain's calendar (contracts-common calendar-range.ts). Luxon writes year 0 as `0000` and
 * years past 9999 with five digits, so the leading four digits and a dash say it all.
 */
export function isInCalendar(date: string): boolean {
  const year = /^(\d{4})-/.exec(date);
  return year !== null && isCalendarYear(Number(year[1]));
}

/**
 * A parsed due or deadline, refused when its date lies outside the calendar: checked on what the
 * parsers produce, so every way to write a date (explicit, a phrase, "in 99999 years", an
 * offset that moves 0001-01-01 into year 0) meets the same rule.
 */
export function checkCalendarRange<T extends { readonly date: string }>(parsed: T, argument: DateArgument): T {
  if (!isInCalendar(parsed.date)) throw invalidDateArgument(argument, CALENDAR_RANGE_MESSAGE, { date: parsed.date });
  return parsed;
}
