import { checkCalendarRange } from './calendar-range';
import { DEFAULT_LANG } from './due.model';
import { invalidDateArgument } from './core/due-errors';
import { requireLanguagePack } from './languages';
import { wallDay } from './core/wall-clock';

export interface Deadline {
  date: string;
  lang: string;
}

/** A deadline is a plain day (API v1 `{date, lang}`, both non-null strings): no time, no recurrence. */
export function parseDeadline(input: { date: string; lang?: string } | null): Deadline | null {
  if (input === null) return null;
  const lang = input.lang ?? DEFAULT_LANG;
  requireLanguagePack(lang);
  const m = typeof input.date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.date) : null;
  if (!m || !wallDay(Number(m[1]), Number(m[2]), Number(m[3]))) {
    throw invalidDateArgument('deadline', 'A deadline date must be a calendar day written YYYY-MM-DD', { date: input.date });
  }
  return checkCalendarRange({ date: input.date, lang }, 'deadline');
}
