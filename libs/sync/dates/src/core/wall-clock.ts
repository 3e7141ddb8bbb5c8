import { DateTime, IANAZone } from 'luxon';

/**
 * Dates are computed as wall-clock values: a Luxon DateTime in the UTC zone whose fields are the
 * local fields the user sees. Floating dues never meet a real zone, and fixed dues are converted
 * only at the edges, so a weekly 09:00 stays 09:00 on both sides of a DST switch.
 */
export type WallDate = DateTime;

export interface TimeOfDay {
  hour: number;
  minute: number;
}

export interface WallDateTime {
  day: WallDate;
  time?: TimeOfDay;
}

export function isValidZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

export function wallDay(year: number, month: number, day: number): WallDate | null {
  const d = DateTime.utc(year, month, day);
  return d.isValid && d.day === day && d.month === month ? d : null;
}

/** The user's current wall clock in `zone`. */
export function wallNow(now: Date, zone: string): DateTime {
  const local = DateTime.fromJSDate(now, { zone });
  return DateTime.utc(local.year, local.month, local.day, local.hour, local.minute, local.second);
}

/** A UTC instant seen on the wall in `zone`. */
export function instantToWall(instant: DateTime, zone: string): DateTime {
  const local = instant.setZone(zone);
  return DateTime.utc(local.year, local.month, local.day, local.hour, local.minute, local.second);
}

/** Wall clock in `zone` to the UTC instant; Luxon moves times inside a spring-forward gap forward. */
export function wallToInstant(wall: DateTime, zone: string): DateTime {
  return DateTime.fromObject(
    { year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute, second: wall.second },
    { zone },
  ).toUTC();
}

export function withTime(day: WallDate, time: TimeOfDay): DateTime {
  return day.set({ hour: time.hour, minute: time.minute, second: 0, millisecond: 0 });
}

export function formatDay(d: DateTime): string {
  return d.toFormat('yyyy-MM-dd');
}

export function formatFloating(d: DateTime): string {
  return d.toFormat("yyyy-MM-dd'T'HH:mm:ss");
}

export function formatInstant(d: DateTime): string {
  return d.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
}

/** ISO weekday 1 = Monday .. 7 = Sunday. The first `weekday` strictly after `from` (or on it when `includeToday`). */
export function upcomingWeekday(from: WallDate, weekday: number, includeToday: boolean): WallDate {
  let delta = (weekday - from.weekday + 7) % 7;
  if (delta === 0 && !includeToday) delta = 7;
  return from.plus({ days: delta });
}
