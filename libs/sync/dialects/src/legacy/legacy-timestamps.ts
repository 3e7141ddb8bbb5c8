import { DateTime } from 'luxon';
import { BoundedMemo } from '@doable/sync-domain';

/**
 * Timestamps of the older generations. The domain keeps instants (Date); v9/api-v1 write
 * `YYYY-MM-DDTHH:MM:SS.ffffffZ` (../wire-format.ts). Sync v8 dropped the fraction; v7, v6 and
 * the first generation wrote `ddd DD Mon YYYY HH:MM:SS +0000` (always UTC, English names:
 * "Fri 26 Sep 2014 08:25:05 +0000", v7 docs `date_added`, `due_date_utc`).
 */

/** Sync v8: `2014-09-26T08:25:05Z` (seconds, no fraction). */
export function v8Timestamp(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * v7, v6 and the first generation: `Fri 26 Sep 2014 08:25:05 +0000`. Written from the UTC parts
 * with fixed English names (never the server's locale), not through Luxon: a full sync writes
 * one or two per task, and a Luxon DateTime each was a tenth of its time (bench S7).
 */
export function legacyTimestamp(instant: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const year = String(instant.getUTCFullYear()).padStart(4, '0');
  const time = `${two(instant.getUTCHours())}:${two(instant.getUTCMinutes())}:${two(instant.getUTCSeconds())}`;
  return `${WEEKDAYS[instant.getUTCDay()]} ${two(instant.getUTCDate())} ${MONTHS[instant.getUTCMonth()]} ${year} ${time} +0000`;
}

/** Wire text's length (`YYYY-MM-DDTHH:MM:SS.ffffffZ`, wire-format.ts): what a full sync's rows hold. */
const WIRE_TEXT_LENGTH = 27;
/** `ddd DD Mon YYYY` of a `YYYY-MM-DD` (null: no such day), remembered: an account's timestamps fall on few days. */
const LEGACY_DAYS = new BoundedMemo<string, string | null>(10_000);

function legacyDayOf(day: string): string | null {
  const midnight = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(midnight.getTime()) ? null : legacyTimestamp(midnight).slice(0, 15);
}

/**
 * legacyTimestamp of a timestamp held as text: wire text (a full sync's rows, formatted by
 * PostgreSQL) is rewritten from its parts, its day's name looked up once per day, where parsing
 * each into a Date first cost a v7 full sync of 5,000 tasks and 2,000 comments about 3 ms (bench
 * S7); any other text is parsed.
 */
export function legacyTimestampOfText(text: string): string {
  if (text.length !== WIRE_TEXT_LENGTH || text[10] !== 'T' || text[26] !== 'Z') return legacyTimestamp(new Date(text));
  const legacyDay = LEGACY_DAYS.get(text.slice(0, 10), legacyDayOf);
  return legacyDay === null ? legacyTimestamp(new Date(text)) : `${legacyDay} ${text.slice(11, 19)} +0000`;
}

const LEGACY_FORMAT = 'ccc dd LLL yyyy HH:mm:ss ZZZ';

/**
 * An instant a v7-era client sent back: the legacy form (any offset), a v8 timestamp, or an
 * ISO 8601 date-time with an offset or `Z` (v7 `due_date_utc` was also documented as
 * `2015-05-30T23:59`, read as UTC). Undefined when the text is none of these.
 */
export function parseLegacyTimestamp(text: string): Date | undefined {
  const trimmed = text.trim();
  const legacy = DateTime.fromFormat(trimmed, LEGACY_FORMAT, { locale: 'en-US', setZone: true });
  if (legacy.isValid) return legacy.toJSDate();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(trimmed)) return undefined;
  const iso = DateTime.fromISO(trimmed, { zone: 'utc' });
  return iso.isValid ? iso.toJSDate() : undefined;
}
