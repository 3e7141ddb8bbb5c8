import { type Chrono } from 'chrono-node';
import { type TimeOfDay } from '../core/wall-clock';

export type CalendarUnit = 'day' | 'week' | 'month' | 'year';

/**
 * The words one language uses for due dates. One grammar (phrase-parser.ts, recurrence.ts) runs
 * over every pack, so a language is only data; chrono-node, where it has the locale, adds the
 * explicit calendar dates ("1. Dezember", "12月1日") the tables do not spell out.
 */
export interface LanguagePack {
  code: string;
  /** Words are separated by spaces, so a match must end on a word boundary (false for zh/ja/ko). */
  spaced: boolean;
  chrono?: Chrono;
  noDate: readonly string[];
  today: readonly string[];
  tomorrow: readonly string[];
  yesterday: readonly string[];
  /** Index 0 = Monday .. 6 = Sunday; each entry lists the accepted spellings. */
  weekdays: readonly (readonly string[])[];
  /** Index 0 = January; optional when chrono covers explicit dates. */
  months?: readonly (readonly string[])[];
  /** Prefix words: "next monday", "next week". */
  next: readonly string[];
  /** Suffix words: "lundi prochain", "lunes próximo". */
  nextSuffix?: readonly string[];
  this: readonly string[];
  /** Optional prepositions before a date ("on monday", "am Montag", "в понедельник"). */
  on: readonly string[];
  in: readonly string[];
  /** Suffix after the unit: "in 3 days" / "3日後". */
  inSuffix?: readonly string[];
  ago: readonly string[];
  and: readonly string[];
  units: Readonly<Record<CalendarUnit, readonly string[]>>;
  hourUnits: readonly string[];
  minuteUnits: readonly string[];
  numberWords?: Readonly<Record<string, number>>;
  every: readonly string[];
  /** `every!` forms: the next occurrence is counted from the completion date. */
  everyFromCompletion: readonly string[];
  /** Suffix "every" (ja ごと, ko 마다): "3日ごと". */
  everySuffix?: readonly string[];
  /** One word standing for "every <unit>": daily, weekly, codziennie, 毎日. */
  everyShortcuts?: Readonly<Record<string, CalendarUnit>>;
  other: readonly string[];
  workday: readonly string[];
  weekend: readonly string[];
  last: readonly string[];
  starting: readonly string[];
  until: readonly string[];
  /** Words that stand for a time: noon, midnight, morning (Todoist: 9am), evening (7pm), ... */
  timesOfDay: Readonly<Record<string, TimeOfDay>>;
  at: readonly string[];
  amPrefix?: readonly string[];
  pmPrefix?: readonly string[];
  amSuffix?: readonly string[];
  pmSuffix?: readonly string[];
  hourSuffix?: readonly string[];
  minuteSuffix?: readonly string[];
  /** Ordinal day numbers: "15th" (en), "15." (de). */
  ordinal?: RegExp;
}
