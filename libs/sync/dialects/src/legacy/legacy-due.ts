import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { BoundedMemo, type StoredDue } from '@doable/sync-domain';
import { legacyTimestamp, parseLegacyTimestamp } from './legacy-timestamps';

/**
 * Due dates of Sync v7 and the first generation. The domain keeps a due object
 * `{date, timezone, string, lang, is_recurring}` (items/item.model.ts StoredDue, dates/); v7
 * items carried `date_string` (as typed), `date_lang` and `due_date_utc` (the instant, legacy
 * timestamp form), first-generation items `date_string` and `due_date`.
 *
 * The instant old Todoist gave a due:
 * - a day without a time: 23:59:59 of that day in the user's zone (v5.3 docs: a "tomorrow"
 *   task of a user in Athens, UTC+3, is due "Wed 08 Oct 2014 20:59:59 +0000");
 * - a floating time: that wall clock in the user's zone;
 * - a fixed time (v8 and later only): the stored instant.
 */

export interface LegacyDueFields {
  /** The due as typed; `""` when there is none (v7 docs' item example). */
  readonly date_string: string;
  /** Guess: null when there is no due (the docs show the field only on dated tasks). */
  readonly date_lang: string | null;
  /** `Fri 26 Sep 2014 23:59:59 +0000`, or null. */
  readonly due_date_utc: string | null;
}

/**
 * The user's zone as Luxon takes it; an unknown or missing zone reads as UTC rather than failing a
 * read. A zone object, not its name: Luxon keeps one per name and checks it once, where
 * `IANAZone.isValidZone` builds an Intl formatter per call (a third of a v7 full sync's time on
 * 5,000 tasks, bench S7).
 */
function zoneOrUtc(timezone: string | null | undefined): Zone {
  if (!timezone) return FixedOffsetZone.utcInstance;
  const zone = IANAZone.create(timezone);
  return zone.isValid ? zone : FixedOffsetZone.utcInstance;
}

/** The instant a due stands for, as old Todoist reckoned it (see above); undefined for text that is no due date. */
export function legacyDueInstant(due: Pick<StoredDue, 'date'>, userTimezone: string | null | undefined): Date | undefined {
  const zone = zoneOrUtc(userTimezone);
  if (/^\d{4}-\d{2}-\d{2}$/.test(due.date)) {
    const endOfDay = DateTime.fromISO(`${due.date}T23:59:59`, { zone });
    return endOfDay.isValid ? endOfDay.toJSDate() : undefined;
  }
  // With Z (or an offset) the text is an instant; without, a wall clock in the user's zone.
  const at = DateTime.fromISO(due.date, { zone, setZone: false });
  return at.isValid ? at.toJSDate() : undefined;
}

/** The due texts legacyDueUtc keeps written, by zone and date. */
const DUE_UTC_MEMO = new BoundedMemo<string, string | null>(10_000);

/**
 * `due_date_utc` of a due's date in a zone, remembered by the two: a full sync writes one per
 * task, and most of an account's tasks share a few dates (today, tomorrow, this week). Through
 * Luxon each took a zone offset from an Intl formatter, half of a v7 full sync's rendering
 * (bench S7); the result depends on nothing else, and the zone rules do not change while a
 * process runs. Bounded: cleared when full rather than kept in order, as a miss costs one Luxon
 * call.
 */
function legacyDueUtc(date: string, userTimezone: string | null | undefined): string | null {
  return DUE_UTC_MEMO.get(`${userTimezone ?? ''}\n${date}`, () => {
    const instant = legacyDueInstant({ date }, userTimezone);
    return instant ? legacyTimestamp(instant) : null;
  });
}

/** A due as v7 wrote it on an item. */
export function legacyDueFields(due: StoredDue | null, userTimezone: string | null | undefined): LegacyDueFields {
  if (due === null) return { date_string: '', date_lang: null, due_date_utc: null };
  return { date_string: due.string, date_lang: due.lang, due_date_utc: legacyDueUtc(due.date, userTimezone) };
}

/**
 * The first generation's `due_date`: the same instant in the same form as v7's `due_date_utc`
 * (v5.3 docs' `query` example); null without a due. The `js_date=1` variant
 * (`new Date("Sun Apr 29 2007 23:59:59")`) is not offered: JSON clients never asked for it.
 */
export function firstGenerationDueDate(due: StoredDue | null, userTimezone: string | null | undefined): string | null {
  return legacyDueFields(due, userTimezone).due_date_utc;
}

/**
 * What the domain's item_add / item_update take as `due`. A value of the wrong type (an object
 * where text belongs) is passed on as sent, for the domain's own coded refusal.
 */
export type DueArg = { readonly string: unknown; readonly lang?: string } | { readonly date: unknown };

/** Text as text, a number as its digits, anything else as sent (the domain refuses it). */
function asText(value: unknown): unknown {
  return typeof value === 'number' ? String(value) : value;
}

/** The due-related arguments of a v7 (or first-generation) item command. */
export interface LegacyDueArgs {
  readonly date_string?: unknown;
  readonly date_lang?: unknown;
  readonly due_date_utc?: unknown;
}

/**
 * v7 item command arguments as the domain's `due` argument:
 * - `date_string` wins when sent: empty (or null) removes the due, any other text is parsed by
 *   the domain in `date_lang` (default the domain's);
 * - else `due_date_utc`: null or empty removes the due; an instant at 23:59 (or 23:59:59) in the
 *   user's zone is that whole day (old Todoist's own marker of "no time"); any other instant is
 *   that wall clock in the user's zone, floating, as v7 tasks had no zone of their own (guess:
 *   the docs say only "the date in UTC");
 * - neither: undefined, the due is not touched.
 * Text that is not a timestamp is passed on as `{date: text}` for the domain to refuse with its
 * own coded error (INVALID_ARGUMENT_VALUE on `due`), so a dialect need not invent one.
 */
export function dueArgFromLegacy(args: LegacyDueArgs, userTimezone: string | null | undefined): DueArg | null | undefined {
  if (args.date_string !== undefined) {
    if (args.date_string === null || (typeof args.date_string === 'string' && args.date_string.trim() === '')) return null;
    const lang = typeof args.date_lang === 'string' && args.date_lang !== '' ? args.date_lang : undefined;
    return { string: asText(args.date_string), ...(lang ? { lang } : {}) };
  }
  if (args.due_date_utc === undefined) return undefined;
  if (args.due_date_utc === null || args.due_date_utc === '') return null;
  const text = asText(args.due_date_utc);
  const instant = typeof text === 'string' ? parseLegacyTimestamp(text) : undefined;
  if (!instant) return { date: text };
  const wall = DateTime.fromJSDate(instant, { zone: zoneOrUtc(userTimezone) });
  if (wall.hour === 23 && wall.minute === 59) return { date: wall.toFormat('yyyy-MM-dd') };
  return { date: wall.toFormat("yyyy-MM-dd'T'HH:mm:ss") };
}
