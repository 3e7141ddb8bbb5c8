import { isInCalendar } from './calendar-range';
import { dueDateFields, dueToWall } from './due-date-format';
import { type Due } from './due.model';
import { languagePack } from './languages';
import { EN } from './languages/en';
import { normaliseDueString, parseEnv } from './parse-due';
import { occurrenceAfter, parseRecurrence } from './recurrence';
import { wallNow } from './core/wall-clock';

/**
 * The due after completing one occurrence of a recurring due, or null when there is none (not
 * recurring, or an `until` bound ends the series). Only the string is stored, so the rule is read
 * again here; relative bounds ("until next month") are read relative to the current due date,
 * which is when the previous parse placed them closest.
 *
 * The wall clock is kept: a fixed 09:00 Europe/Berlin stays 09:00 there across DST, so its UTC
 * instant moves by an hour, and a floating time never meets a zone at all.
 */
export function nextOccurrence(due: Due, ctx: { completedAt: Date; timezone: string }): Due | null {
  if (!due.is_recurring) return null;
  const pack = languagePack(due.lang) ?? EN;
  const current = dueToWall(due);
  const zone = due.timezone ?? ctx.timezone;
  const env = parseEnv({ now: ctx.completedAt, timezone: zone }, zone, current.day);
  const rule = parseRecurrence(normaliseDueString(due.string), pack, env);
  if (!rule) return null;
  // `every!` counts from the day it was done, `every` from the day it was due.
  const from = rule.fromCompletion ? wallNow(ctx.completedAt, zone).startOf('day') : current.day;
  const next = occurrenceAfter(rule, from);
  if (!next) return null;
  const time = current.time ?? rule.time;
  const fields = dueDateFields(time ? { day: next, time } : { day: next }, due.timezone);
  // A series that would run past the calendar (year 9999) ends there, like one with an `until`.
  if (!isInCalendar(fields.date)) return null;
  return { ...due, ...fields };
}
