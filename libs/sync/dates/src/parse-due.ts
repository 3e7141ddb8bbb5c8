import { type DateTime } from 'luxon';
import { checkCalendarRange } from './calendar-range';
import { type DateContext, DEFAULT_LANG, type Due, type DueInput } from './due.model';
import { invalidDateArgument } from './core/due-errors';
import { requireLanguagePack } from './languages';
import { type ParseEnv } from './parse-env';
import { firstOccurrence, parseRecurrence } from './recurrence';
import { renderDue } from './render-due';
import { parseSingleDate } from './single-date';
import { dueDateFields, explicitDate } from './due-date-format';
import { isValidZone, type WallDateTime, wallNow } from './core/wall-clock';

/** Lower-case, NFC, single spaces: the grammar compares words, not typography. */
export function normaliseDueString(text: string): string {
  return text.normalize('NFC').toLocaleLowerCase().replace(/\s+/g, ' ').trim();
}

export function parseEnv(ctx: DateContext, zone: string, today?: DateTime): ParseEnv {
  const now = wallNow(ctx.now, zone);
  return {
    now,
    today: today ?? now.startOf('day'),
    startDay: weekdaySetting(ctx.startDay),
    nextWeekDay: weekdaySetting(ctx.nextWeekDay),
  };
}

function weekdaySetting(value: number | undefined): number {
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= 7 ? value : 1;
}

function checkZone(zone: string | null | undefined): string | null {
  if (zone === undefined || zone === null || zone === '') return null;
  if (!isValidZone(zone)) throw invalidDateArgument('due', `Unknown timezone: "${zone}"`, { timezone: zone });
  return zone;
}

function isRecurringString(text: string, lang: string, ctx: DateContext): boolean {
  try {
    return parseRecurrence(normaliseDueString(text), requireLanguagePack(lang), parseEnv(ctx, ctx.timezone)) !== undefined;
  } catch {
    // A client echoing back a due object with a string we cannot read still keeps its date.
    return false;
  }
}

/**
 * The full due object for what a client sent, or null to clear the due. An explicit date wins over
 * the string (clients echo the whole object back); the string then only says whether it recurs.
 */
export function parseDue(input: DueInput, ctx: DateContext): Due | null {
  const due = readDue(input, ctx);
  return due === null ? null : checkCalendarRange(due, 'due');
}

function readDue(input: DueInput, ctx: DateContext): Due | null {
  const lang = input.lang ?? DEFAULT_LANG;
  const pack = requireLanguagePack(lang);
  const zone = checkZone(input.timezone);
  // Bodies arrive as untyped JSON: a number where a string belongs is a client error, not a crash.
  for (const key of ['string', 'date', 'datetime'] as const) {
    const value: unknown = input[key];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      throw invalidDateArgument('due', `due.${key} must be a string`, { [key]: value });
    }
  }
  const text = input.string?.trim();
  const explicit = input.date ?? input.datetime;

  if (explicit !== undefined && explicit !== '') {
    const fields = explicitDate(explicit.trim(), zone, ctx);
    return {
      ...fields,
      string: text || renderDue(fields),
      lang,
      is_recurring: text ? isRecurringString(text, lang, ctx) : false,
    };
  }
  if (text === undefined) throw invalidDateArgument('due', 'A due needs a string or a date');
  const normalised = normaliseDueString(text);
  if (normalised === '' || pack.noDate.includes(normalised)) return null;

  // "today" and the wall clock are those of the zone the time is fixed in, else the user's.
  const env = parseEnv(ctx, zone ?? ctx.timezone);
  const rule = parseRecurrence(normalised, pack, env);
  if (rule) {
    const first = firstOccurrence(rule, env.today);
    if (!first) throw invalidDateArgument('due', `The recurrence "${text}" has no occurrence`, { string: text });
    const wall: WallDateTime = rule.time ? { day: first, time: rule.time } : { day: first };
    return { ...dueDateFields(wall, zone), string: text, lang, is_recurring: true };
  }
  const single = parseSingleDate(normalised, pack, env, ctx.now, zone ?? ctx.timezone);
  if (!single) throw invalidDateArgument('due', `Invalid date format: "${text}"`, { string: text, lang });
  return { ...dueDateFields(single, zone), string: text, lang, is_recurring: false };
}
