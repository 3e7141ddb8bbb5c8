import { DomainError } from '@doable/shared-errors';
import { DateTime, IANAZone } from 'luxon';
import { parseDue } from '@doable/sync-dates';
import type { FilterContext } from './filter-context';
import { invalidFilter } from './filter-errors';

/** A date phrase on the user's wall clock: its day, and the instant when it named a time. */
export interface FilterDate {
  /** YYYY-MM-DD in the user's zone. */
  readonly day: string;
  readonly instant?: Date;
}

/** "3 days", "+3 days", "-3 days" as a `due before:` operand: a day counted from today. */
const DAY_OFFSET = /^([+-]?)(\d{1,4}) ?days?$/;

/**
 * Whether a zone name is valid, by name: luxon answers it by constructing an Intl.DateTimeFormat,
 * which cost 3% of the sync service's CPU when every filter request asked again.
 */
const zoneValidity = new Map<string, boolean>();

/** The user's zone, or UTC when the profile names none that exists. */
export function filterZone(ctx: FilterContext): string {
  let valid = zoneValidity.get(ctx.timezone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(ctx.timezone);
    // Bounded: zone names come from user profiles, and there are only a few hundred real ones.
    if (zoneValidity.size < 1_000) zoneValidity.set(ctx.timezone, valid);
  }
  return valid ? ctx.timezone : 'UTC';
}

/** The user's today, YYYY-MM-DD. */
export function userToday(ctx: FilterContext): string {
  return DateTime.fromJSDate(ctx.now, { zone: filterZone(ctx) }).toFormat('yyyy-MM-dd');
}

/** A day shifted by whole calendar days (YYYY-MM-DD in, YYYY-MM-DD out). */
export function shiftDay(day: string, days: number): string {
  return DateTime.fromISO(day, { zone: 'UTC' }).plus({ days }).toFormat('yyyy-MM-dd');
}

/** The instant the user's day starts. */
export function startOfUserDay(day: string, ctx: FilterContext): Date {
  return DateTime.fromISO(day, { zone: filterZone(ctx) }).startOf('day').toJSDate();
}

/**
 * Reads a date phrase with the sync service's own due-date grammar (the language packs), so a
 * filter understands exactly the phrases a due string does. Returns null for "no date" words.
 * A recurring phrase names no single day and is refused.
 */
export function resolveFilterDate(phrase: string, ctx: FilterContext): FilterDate | null {
  const offset = DAY_OFFSET.exec(phrase);
  if (offset) {
    const days = Number(offset[2]) * (offset[1] === '-' ? -1 : 1);
    return { day: shiftDay(userToday(ctx), days) };
  }
  const zone = filterZone(ctx);
  let due;
  try {
    due = parseDue({ string: phrase, lang: ctx.lang }, { now: ctx.now, timezone: zone, startDay: ctx.startDay, nextWeekDay: ctx.nextWeekDay });
  } catch (err) {
    // A bad language stays a `lang` error; anything the date grammar refuses is a bad filter.
    if (err instanceof DomainError && err.extra['argument'] === 'due') {
      throw invalidFilter(`Invalid filter: "${phrase}" is neither a known filter nor a date`, { query: phrase });
    }
    throw err;
  }
  if (due === null) return null;
  if (due.is_recurring) throw invalidFilter(`Invalid filter: "${phrase}" is a recurring date, not a day`, { query: phrase });
  const day = due.date.slice(0, 10);
  if (due.date.length === 10) return { day };
  // No timezone was sent, so a time comes back floating: the user's wall clock.
  return { day, instant: DateTime.fromISO(due.date, { zone }).toJSDate() };
}
