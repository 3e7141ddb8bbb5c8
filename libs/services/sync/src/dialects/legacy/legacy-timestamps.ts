import { DateTime } from 'luxon';

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

/** v7, v6 and the first generation: `Fri 26 Sep 2014 08:25:05 +0000`. */
export function legacyTimestamp(instant: Date): string {
  // Luxon with a fixed English locale: the names must not follow the server's locale.
  return DateTime.fromJSDate(instant, { zone: 'utc' }).setLocale('en-US').toFormat("ccc dd LLL yyyy HH:mm:ss '+0000'");
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
