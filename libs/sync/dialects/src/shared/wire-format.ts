import { BoundedMemo } from '@doable/sync-domain';
/** `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the v9/v1 timestamp form (microseconds; JS keeps milliseconds). */
export function wireTimestamp(date: Date): string {
  // Sliced rather than matched: this runs for every timestamp of every object a sync sends.
  const iso = date.toISOString();
  return `${iso.slice(0, -1)}000Z`;
}

/** Length of wire text: `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
const WIRE_TIMESTAMP_LENGTH = 27;

/**
 * A timestamp in wire text. Text PostgreSQL already formatted (a full sync's rows, read with the
 * *_WIRE_COLUMNS) passes as it is; a Date, or ISO text in another form (`.mmmZ`), is formatted,
 * so every input gives the text `wireTimestamp(new Date(value))` gives.
 */
export function wireTimestampOf(value: Date | string): string {
  return typeof value === 'string' && value.length === WIRE_TIMESTAMP_LENGTH ? value : wireTimestamp(new Date(value));
}

export function wireDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * One offset formatter per zone. Building an Intl.DateTimeFormat costs about a millisecond (ICU
 * data), and tz_info took four per sync that writes the user (every full sync: 7 ms of a 5,000-task
 * full sync's CPU under load, bench S3). Zone names are a small set, but a user may spell one in
 * many cases (Intl accepts them), so the cache is bounded.
 */
const OFFSET_FORMATS = new BoundedMemo<string, Intl.DateTimeFormat>(1_000);

/** The zone's offset formatter; throws a RangeError for a zone Intl does not know (never cached). */
function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  return OFFSET_FORMATS.get(timeZone, (zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }));
}

function offsetMinutes(timeZone: string, at: Date): number {
  const name = offsetFormat(timeZone).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/** The user's `tz_info` object; an unknown zone falls back to UTC rather than failing a sync. */
export function tzInfo(timeZone: string, at: Date = new Date()): { timezone: string; hours: number; minutes: number; is_dst: 0 | 1; gmt_string: string } {
  let zone = timeZone;
  try {
    offsetFormat(zone);
  } catch {
    zone = 'UTC';
  }
  const offset = offsetMinutes(zone, at);
  const year = at.getUTCFullYear();
  const standard = Math.min(offsetMinutes(zone, new Date(Date.UTC(year, 0, 1))), offsetMinutes(zone, new Date(Date.UTC(year, 6, 1))));
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hours = Math.trunc(offset / 60);
  return {
    timezone: zone,
    hours,
    minutes: offset - hours * 60,
    is_dst: offset !== standard ? 1 : 0,
    gmt_string: `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`,
  };
}
