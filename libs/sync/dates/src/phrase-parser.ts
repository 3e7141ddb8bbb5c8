import { type CalendarUnit, type LanguagePack } from './languages/language-pack';
import { type ParseEnv } from './parse-env';
import { type Scanner } from './scanner';
import { type TimeOfDay, type WallDate, type WallDateTime, upcomingWeekday, wallDay } from './core/wall-clock';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternation = (words: readonly string[] | undefined): string =>
  words && words.length > 0 ? [...words].sort((a, b) => b.length - a.length).map(escape).join('|') : '(?!)';

export function readNumber(sc: Scanner, pack: LanguagePack): number | undefined {
  const digits = sc.match(/\d{1,3}/);
  if (digits) return Number(digits[0]);
  const words = pack.numberWords;
  if (!words) return undefined;
  const w = sc.word(Object.keys(words));
  return w === undefined ? undefined : words[w];
}

export function readUnit(sc: Scanner, pack: LanguagePack): CalendarUnit | undefined {
  // The longest spelling across all units wins, so "mo" (month) never shadows a longer word.
  const start = sc.position;
  let best: { unit: CalendarUnit; end: number } | undefined;
  for (const unit of ['day', 'week', 'month', 'year'] as const) {
    sc.reset(start);
    if (sc.word(pack.units[unit]) !== undefined && (!best || sc.position > best.end)) best = { unit, end: sc.position };
  }
  sc.reset(best ? best.end : start);
  return best?.unit;
}

/** "5pm", "at 17:30", "um 17 Uhr", "午後5時", "noon". Bare numbers are not times: "Dec 1 2026". */
export function parseTime(sc: Scanner, pack: LanguagePack): TimeOfDay | undefined {
  const start = sc.position;
  const hadAt = sc.word(pack.at) !== undefined;
  const named = sc.word(Object.keys(pack.timesOfDay));
  if (named !== undefined) return pack.timesOfDay[named];
  const am = sc.word(pack.amPrefix ?? []) !== undefined;
  const pm = !am && sc.word(pack.pmPrefix ?? []) !== undefined;
  const re = new RegExp(
    `(\\d{1,2})(?:([:.])(\\d{2}))?(?:\\s*(${alternation(pack.hourSuffix)})(?:\\s*(\\d{1,2})\\s*(?:${alternation(pack.minuteSuffix)})?)?)?` +
      `(?:\\s*(?:(${alternation(pack.amSuffix)})|(${alternation(pack.pmSuffix)})))?`,
    'y',
  );
  const m = sc.match(re);
  if (!m) {
    sc.reset(start);
    return undefined;
  }
  const [, h, sep, mm, hourSuffix, suffixMinutes, amSuffix, pmSuffix] = m;
  const isAm = am || amSuffix !== undefined;
  const isPm = pm || pmSuffix !== undefined;
  // Without "at", a suffix or a colon a number is more likely a day or a year than a time.
  if (!hadAt && !isAm && !isPm && hourSuffix === undefined && sep !== ':') {
    sc.reset(start);
    return undefined;
  }
  let hour = Number(h);
  const minute = Number(mm ?? suffixMinutes ?? 0);
  if (isAm || isPm) {
    if (hour < 1 || hour > 12) return reject(sc, start);
    if (isPm && hour < 12) hour += 12;
    if (isAm && hour === 12) hour = 0;
  }
  if (hour > 23 || minute > 59) return reject(sc, start);
  return { hour, minute };
}

function reject(sc: Scanner, start: number): undefined {
  sc.reset(start);
  return undefined;
}

function addUnits(day: WallDate, unit: CalendarUnit, n: number): WallDate {
  // Luxon clamps month ends (Jan 31 + 1 month = Feb 28), which is what people mean.
  return day.plus({ [`${unit}s`]: n });
}

/** The user's "next week": the next-week weekday inside the week after the current one. */
export function nextWeek(env: ParseEnv): WallDate {
  const weekStart = upcomingWeekday(env.today, env.startDay, false);
  return upcomingWeekday(weekStart, env.nextWeekDay, true);
}

function readYear(sc: Scanner): number | undefined {
  const m = sc.match(/\d{4}/);
  return m ? Number(m[0]) : undefined;
}

/** A calendar date without a year that has already passed this year means next year. */
function calendarDate(env: ParseEnv, month: number, day: number, year: number | undefined): WallDate | undefined {
  if (year !== undefined) return wallDay(year, month, day) ?? undefined;
  const thisYear = wallDay(env.today.year, month, day);
  if (thisYear && thisYear >= env.today) return thisYear;
  return wallDay(env.today.year + 1, month, day) ?? undefined;
}

function readDayNumber(sc: Scanner, pack: LanguagePack): number | undefined {
  const ord = pack.ordinal ? sc.match(pack.ordinal) : undefined;
  const m = ord ?? sc.match(/\d{1,2}/);
  if (!m) return undefined;
  const n = Number(m[1] ?? m[0]);
  return n >= 1 && n <= 31 ? n : undefined;
}

/** "Dec 1", "December 1st, 2026", "1 December", "1st of Dec 2026", "2026-12-01", "12/1". */
export function parseExplicitDate(sc: Scanner, pack: LanguagePack, env: ParseEnv): WallDate | undefined {
  const start = sc.position;
  const iso = sc.match(/(\d{4})-(\d{1,2})-(\d{1,2})/);
  if (iso) return wallDay(Number(iso[1]), Number(iso[2]), Number(iso[3])) ?? reject(sc, start);
  if (pack.code === 'en') {
    // English numeric dates are month first (the default date_format 1 = MM-DD-YYYY).
    const md = sc.match(/(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?/);
    if (md) {
      const year = md[3] === undefined ? undefined : Number(md[3].length === 2 ? `20${md[3]}` : md[3]);
      return calendarDate(env, Number(md[1]), Number(md[2]), year) ?? reject(sc, start);
    }
  }
  if (!pack.months) return undefined;
  const month = sc.oneOf(pack.months);
  if (month !== undefined) {
    const day = readDayNumber(sc, pack);
    if (day === undefined) return reject(sc, start);
    return calendarDate(env, month + 1, day, readYear(sc)) ?? reject(sc, start);
  }
  const day = readDayNumber(sc, pack);
  if (day !== undefined) {
    sc.word(['of']);
    const m = sc.oneOf(pack.months);
    if (m !== undefined) return calendarDate(env, m + 1, day, readYear(sc)) ?? reject(sc, start);
  }
  return reject(sc, start);
}

interface DatePart {
  day: WallDate;
  time?: TimeOfDay;
}

function parseRelative(sc: Scanner, pack: LanguagePack, env: ParseEnv): DatePart | undefined {
  const start = sc.position;
  const hadIn = sc.word(pack.in) !== undefined;
  const n = readNumber(sc, pack);
  if (n === undefined) return reject(sc, start);
  const afterNumber = sc.position;
  const unit = readUnit(sc, pack);
  if (unit !== undefined) {
    if (hadIn || sc.word(pack.inSuffix ?? []) !== undefined) return { day: addUnits(env.today, unit, n) };
    if (sc.word(pack.ago) !== undefined) return { day: addUnits(env.today, unit, -n) };
    return reject(sc, start);
  }
  sc.reset(afterNumber);
  const hours = sc.word(pack.hourUnits) !== undefined;
  const minutes = !hours && sc.word(pack.minuteUnits) !== undefined;
  if ((hours || minutes) && (hadIn || sc.word(pack.inSuffix ?? []) !== undefined)) {
    const at = env.now.plus(hours ? { hours: n } : { minutes: n });
    return { day: at.startOf('day'), time: { hour: at.hour, minute: at.minute } };
  }
  return reject(sc, start);
}

function parseDatePart(sc: Scanner, pack: LanguagePack, env: ParseEnv): DatePart | undefined {
  const start = sc.position;
  if (sc.word(pack.today) !== undefined) return { day: env.today };
  if (sc.word(pack.tomorrow) !== undefined) return { day: env.today.plus({ days: 1 }) };
  if (sc.word(pack.yesterday) !== undefined) return { day: env.today.minus({ days: 1 }) };
  if (sc.word(pack.next) !== undefined) {
    const wd = sc.oneOf(pack.weekdays);
    // "friday" is the coming one, "next friday" the one after it (public-api-facts §5).
    if (wd !== undefined) return { day: upcomingWeekday(env.today, wd + 1, false).plus({ weeks: 1 }) };
    if (sc.word(pack.weekend) !== undefined) return { day: upcomingWeekday(env.today, 6, true).plus({ weeks: 1 }) };
    const unit = readUnit(sc, pack);
    if (unit === 'week') return { day: nextWeek(env) };
    if (unit === 'day') return { day: env.today.plus({ days: 1 }) };
    if (unit !== undefined) return { day: addUnits(env.today, unit, 1) };
    return reject(sc, start);
  }
  if (sc.word(pack.this) !== undefined) {
    const wd = sc.oneOf(pack.weekdays);
    if (wd !== undefined) return { day: upcomingWeekday(env.today, wd + 1, true) };
    if (sc.word(pack.weekend) !== undefined) return { day: upcomingWeekday(env.today, 6, true) };
    return reject(sc, start);
  }
  const wd = sc.oneOf(pack.weekdays);
  if (wd !== undefined) return { day: upcomingWeekday(env.today, wd + 1, false) };
  if (sc.word(pack.weekend) !== undefined) return { day: upcomingWeekday(env.today, 6, true) };
  const relative = parseRelative(sc, pack, env);
  if (relative) return relative;
  const explicit = parseExplicitDate(sc, pack, env);
  if (explicit) return { day: explicit };
  // "on monday", "am Montag": the preposition is optional and only counts when a date follows.
  if (sc.word(pack.on) !== undefined) {
    const after = parseDatePart(sc, pack, env);
    if (after) return after;
  }
  return reject(sc, start);
}

/** A date and/or a time in either order; consumes what it understands and leaves the rest. */
export function parseDateTimePhrase(sc: Scanner, pack: LanguagePack, env: ParseEnv): WallDateTime | undefined {
  let day: WallDate | undefined;
  let time: TimeOfDay | undefined;
  for (;;) {
    let progressed = false;
    if (day === undefined) {
      const d = parseDatePart(sc, pack, env);
      if (d) {
        day = d.day;
        time ??= d.time;
        progressed = true;
      }
    }
    if (time === undefined) {
      const t = parseTime(sc, pack);
      if (t) {
        time = t;
        progressed = true;
      }
    }
    if (!progressed) break;
  }
  if (day === undefined && time === undefined) return undefined;
  return time ? { day: day ?? env.today, time } : { day: day ?? env.today };
}
