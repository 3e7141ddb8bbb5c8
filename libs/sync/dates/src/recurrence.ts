import { DateTime } from 'luxon';
import { Frequency, RRule, Weekday } from 'rrule';
import { invalidDateArgument } from './core/due-errors';
import { type CalendarUnit, type LanguagePack } from './languages/language-pack';
import { type ParseEnv } from './parse-env';
import { parseDateTimePhrase, parseTime, readNumber, readUnit } from './phrase-parser';
import { Scanner } from './scanner';
import { type TimeOfDay, type WallDate } from './core/wall-clock';

/** A parsed recurring due string; rrule does the calendar arithmetic on wall-clock days. */
export interface RecurrenceRule {
  freq: Frequency;
  interval: number;
  /** 0 = Monday .. 6 = Sunday; `nth` for "3rd friday" (negative counts from the month end). */
  byWeekday?: { weekday: number; nth?: number }[];
  byMonthDay?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  time?: TimeOfDay;
  starting?: WallDate;
  until?: WallDate;
  /** `every!`: count the next occurrence from the completion date, not from the due date. */
  fromCompletion: boolean;
}

type Pattern = Omit<RecurrenceRule, 'fromCompletion' | 'starting' | 'until'>;

const FREQ: Record<CalendarUnit, Frequency> = {
  day: Frequency.DAILY,
  week: Frequency.WEEKLY,
  month: Frequency.MONTHLY,
  year: Frequency.YEARLY,
};
const WORKDAYS = [0, 1, 2, 3, 4].map((weekday) => ({ weekday }));
const SATURDAY = 5;

function fail(text: string): never {
  throw invalidDateArgument('due', `Invalid recurring due date: "${text}"`, { string: text });
}

function readWeekdayList(sc: Scanner, pack: LanguagePack): number[] | undefined {
  const first = sc.oneOf(pack.weekdays);
  if (first === undefined) return undefined;
  const days = [first];
  for (;;) {
    const mark = sc.position;
    sc.word(pack.and);
    const next = sc.oneOf(pack.weekdays);
    if (next === undefined) {
      sc.reset(mark);
      return days;
    }
    days.push(next);
  }
}

type MonthItem = { kind: 'monthday'; day: number } | { kind: 'nth'; weekday: number; nth: number } | { kind: 'workday'; pos: number };

/** "15th", "3rd friday", "last day", "last workday", "15th workday". */
function readMonthItem(sc: Scanner, pack: LanguagePack): MonthItem | undefined {
  const start = sc.position;
  let pos: number | undefined;
  if (sc.word(pack.last) !== undefined) pos = -1;
  else if (pack.ordinal) {
    const m = sc.match(pack.ordinal);
    if (m) pos = Number(m[1]);
  }
  if (pos === undefined) return undefined;
  const weekday = sc.oneOf(pack.weekdays);
  if (weekday !== undefined) return pos <= 5 ? { kind: 'nth', weekday, nth: pos } : reject(sc, start);
  if (sc.word(pack.workday) !== undefined) return { kind: 'workday', pos };
  const mark = sc.position;
  if (readUnit(sc, pack) !== 'day') sc.reset(mark);
  return pos >= -1 && pos <= 31 && pos !== 0 ? { kind: 'monthday', day: pos } : reject(sc, start);
}

function reject(sc: Scanner, start: number): undefined {
  sc.reset(start);
  return undefined;
}

function monthPattern(items: MonthItem[]): Pattern | undefined {
  const kinds = new Set(items.map((i) => i.kind));
  if (kinds.size !== 1) return undefined; // "every 15th, last friday" mixes rules rrule cannot hold in one
  const monthly = { freq: Frequency.MONTHLY, interval: 1 };
  const [first] = items;
  if (first?.kind === 'monthday') return { ...monthly, byMonthDay: items.map((i) => (i.kind === 'monthday' ? i.day : 0)) };
  if (first?.kind === 'nth') return { ...monthly, byWeekday: items.map((i) => (i.kind === 'nth' ? { weekday: i.weekday, nth: i.nth } : { weekday: 0 })) };
  return { ...monthly, byWeekday: WORKDAYS, bySetPos: items.map((i) => (i.kind === 'workday' ? i.pos : 0)) };
}

/** What follows "every": "day", "3 days", "other week", "mon, fri", "15th", "last day", "jan 27", "weekday", "morning". */
function readPattern(sc: Scanner, pack: LanguagePack): Pattern | undefined {
  const start = sc.position;
  const items: MonthItem[] = [];
  for (let item = readMonthItem(sc, pack); item; item = readMonthItem(sc, pack)) {
    items.push(item);
    sc.word(pack.and);
  }
  if (items.length > 0) {
    const month = pack.months ? sc.oneOf(pack.months) : undefined;
    const [only] = items;
    if (month !== undefined && items.length === 1 && only?.kind === 'monthday') {
      return { freq: Frequency.YEARLY, interval: 1, byMonth: [month + 1], byMonthDay: [only.day] };
    }
    return monthPattern(items);
  }
  sc.reset(start);

  let interval = 1;
  if (sc.word(pack.other) !== undefined) interval = 2;
  else {
    const n = readNumber(sc, pack);
    if (n !== undefined) {
      if (n < 1) return reject(sc, start);
      // "every 27 jan": a bare day number before a month name is a yearly date, not an interval.
      const month = pack.months && n <= 31 ? sc.oneOf(pack.months) : undefined;
      if (month !== undefined) return { freq: Frequency.YEARLY, interval: 1, byMonth: [month + 1], byMonthDay: [n] };
      interval = n;
    }
  }
  const weekdays = readWeekdayList(sc, pack);
  if (weekdays) return { freq: Frequency.WEEKLY, interval, byWeekday: weekdays.map((weekday) => ({ weekday })) };
  if (sc.word(pack.workday) !== undefined) return { freq: Frequency.WEEKLY, interval, byWeekday: WORKDAYS };
  if (sc.word(pack.weekend) !== undefined) return { freq: Frequency.WEEKLY, interval, byWeekday: [{ weekday: SATURDAY }] };
  const unit = readUnit(sc, pack);
  if (unit !== undefined) {
    // "every week on monday" / 毎週月曜日 / 매주 월요일: a unit narrowed by weekdays.
    const mark = sc.position;
    sc.word(pack.on);
    const days = unit === 'week' ? readWeekdayList(sc, pack) : undefined;
    if (days) return { freq: Frequency.WEEKLY, interval, byWeekday: days.map((weekday) => ({ weekday })) };
    sc.reset(mark);
    return { freq: FREQ[unit], interval };
  }
  if (interval === 1 && pack.months) {
    const month = sc.oneOf(pack.months);
    if (month !== undefined) {
      const day = pack.ordinal ? (sc.match(pack.ordinal) ?? sc.match(/\d{1,2}/)) : sc.match(/\d{1,2}/);
      const dayOfMonth = day ? Number(day[1] ?? day[0]) : NaN;
      if (dayOfMonth >= 1 && dayOfMonth <= 31) return { freq: Frequency.YEARLY, interval, byMonth: [month + 1], byMonthDay: [dayOfMonth] };
    }
  }
  const part = sc.word(Object.keys(pack.timesOfDay));
  if (part !== undefined && interval === 1) return { freq: Frequency.DAILY, interval, time: pack.timesOfDay[part] };
  return reject(sc, start);
}

/**
 * The recurrence in a due string, undefined when the string is not recurring. A string that starts
 * like a recurrence ("every ...") but is not understood throws rather than becoming a one-off date.
 */
export function parseRecurrence(text: string, pack: LanguagePack, env: ParseEnv): RecurrenceRule | undefined {
  const sc = new Scanner(text, pack.spaced);
  let fromCompletion = false;
  let pattern: Pattern | undefined;
  if (sc.word(pack.everyFromCompletion) !== undefined) {
    fromCompletion = true;
    pattern = readPattern(sc, pack) ?? fail(text);
  } else if (sc.word(pack.every) !== undefined) {
    pattern = readPattern(sc, pack) ?? fail(text);
  } else {
    const shortcut = sc.word(Object.keys(pack.everyShortcuts ?? {}));
    const unit = shortcut === undefined ? undefined : pack.everyShortcuts?.[shortcut];
    if (unit !== undefined) pattern = { freq: FREQ[unit], interval: 1 };
    else if (pack.everySuffix) {
      // Suffix languages: "3日ごと", "월요일마다".
      pattern = readPattern(sc, pack);
      if (!pattern || sc.word(pack.everySuffix) === undefined) return undefined;
    } else return undefined;
  }

  const rule: RecurrenceRule = { ...pattern, fromCompletion };
  for (;;) {
    let progressed = false;
    if (rule.time === undefined) {
      const time = parseTime(sc, pack);
      if (time) {
        rule.time = time;
        progressed = true;
      }
    }
    if (rule.starting === undefined && sc.word(pack.starting) !== undefined) {
      const start = parseDateTimePhrase(sc, pack, env) ?? fail(text);
      rule.starting = start.day;
      rule.time ??= start.time;
      progressed = true;
    }
    if (rule.until === undefined && sc.word(pack.until) !== undefined) {
      rule.until = (parseDateTimePhrase(sc, pack, env) ?? fail(text)).day;
      progressed = true;
    }
    if (!progressed) break;
  }
  if (!sc.done()) fail(text);
  return rule;
}

function toRRule(rule: RecurrenceRule, dtstart: WallDate): RRule {
  return new RRule({
    freq: rule.freq,
    interval: rule.interval,
    wkst: RRule.MO,
    dtstart: dtstart.toJSDate(),
    // `until` is a day: the whole of it counts.
    until: rule.until ? rule.until.endOf('day').toJSDate() : null,
    byweekday: rule.byWeekday?.map((d) => new Weekday(d.weekday, d.nth)) ?? null,
    bymonthday: rule.byMonthDay ?? null,
    bymonth: rule.byMonth ?? null,
    bysetpos: rule.bySetPos ?? null,
  });
}

function fromRRule(date: Date | null): WallDate | null {
  return date ? DateTime.fromJSDate(date, { zone: 'utc' }).startOf('day') : null;
}

/**
 * The first occurrence on or after `from` (a wall-clock day), or after `starting`. The interval
 * counts from that first occurrence, so "every other monday" starts on the coming Monday rather
 * than skipping it because rrule's two-week cycle began in the current week.
 */
export function firstOccurrence(rule: RecurrenceRule, from: WallDate): WallDate | null {
  const anchor = rule.starting && rule.starting > from ? rule.starting : from;
  return fromRRule(toRRule({ ...rule, interval: 1 }, anchor).after(anchor.toJSDate(), true));
}

/** The first occurrence strictly after `day`, with the series anchored at `day`. */
export function occurrenceAfter(rule: RecurrenceRule, day: WallDate): WallDate | null {
  const next = fromRRule(toRRule(rule, day).after(day.toJSDate(), false));
  if (next && rule.starting && next < rule.starting) return firstOccurrence(rule, rule.starting);
  return next;
}
