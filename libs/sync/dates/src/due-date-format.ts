import { DateTime } from 'luxon';
import { type DateContext, type Due } from './due.model';
import { invalidDateArgument } from './core/due-errors';
import {
  formatDay,
  formatFloating,
  formatInstant,
  instantToWall,
  type WallDateTime,
  wallDay,
  wallToInstant,
  withTime,
} from './core/wall-clock';

/** The stored date for a wall clock: full day, floating, or (with a zone) the UTC instant. */
export function dueDateFields(wall: WallDateTime, fixedZone: string | null): Pick<Due, 'date' | 'timezone'> {
  if (!wall.time) return { date: formatDay(wall.day), timezone: null };
  const at = withTime(wall.day, wall.time);
  if (fixedZone) return { date: formatInstant(wallToInstant(at, fixedZone)), timezone: fixedZone };
  return { date: formatFloating(at), timezone: null };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * `due.date` / REST `due_datetime`: a day, a floating time, or an instant (Z or an offset). An
 * instant keeps the zone the client named, else the user's; a floating time becomes an instant
 * only when the client names a zone. Seconds are kept; fractions are dropped.
 */
export function explicitDate(value: string, zone: string | null, ctx: DateContext): Pick<Due, 'date' | 'timezone'> {
  const bad = (): never => {
    throw invalidDateArgument('due', `Invalid date format: "${value}"`, { date: value });
  };
  const day = DAY.exec(value);
  if (day) {
    const d = wallDay(Number(day[1]), Number(day[2]), Number(day[3])) ?? bad();
    return { date: formatDay(d), timezone: null };
  }
  const m = DATE_TIME.exec(value) ?? bad();
  const [, y, mo, d, h, mi, s, offset] = m;
  const wall = DateTime.utc(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0));
  if (!wall.isValid || wall.day !== Number(d) || Number(h) > 23) bad();
  if (offset !== undefined) {
    const instant = DateTime.fromISO(value, { setZone: true });
    if (!instant.isValid) bad();
    return { date: formatInstant(instant), timezone: zone ?? ctx.timezone };
  }
  if (zone) return { date: formatInstant(wallToInstant(wall, zone)), timezone: zone };
  return { date: formatFloating(wall), timezone: null };
}

/** The wall clock a stored due stands for, in its own zone when fixed. */
export function dueToWall(due: Pick<Due, 'date' | 'timezone'>): WallDateTime {
  const bad = (): never => {
    throw invalidDateArgument('due', `Invalid stored due date: "${due.date}"`, { date: due.date });
  };
  const day = DAY.exec(due.date);
  if (day) return { day: wallDay(Number(day[1]), Number(day[2]), Number(day[3])) ?? bad() };
  const m = DATE_TIME.exec(due.date) ?? bad();
  const wall: DateTime =
    m[7] === undefined
      ? DateTime.utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0))
      : instantToWall(DateTime.fromISO(due.date, { setZone: true }), due.timezone ?? 'UTC');
  if (!wall.isValid) bad();
  return { day: wall.startOf('day'), time: { hour: wall.hour, minute: wall.minute } };
}
