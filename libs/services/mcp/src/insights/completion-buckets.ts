import { type Clock, dayFromToday, localDay } from './local-calendar';
import type { Completion } from './project-figures';

export interface DayCount {
  readonly date: string;
  readonly totalCount: number;
}

export interface WeekCount {
  readonly fromDate: string;
  readonly toDate: string;
  readonly totalCount: number;
}

/**
 * Completions per day of the user's calendar over the last `weeks` weeks (today the last day,
 * days without any included as 0), oldest first; and per 7-day stretch of those days, ending
 * today (not calendar weeks: every stretch is a whole 7 days).
 */
export function completionBuckets(completions: readonly Completion[], clock: Clock, weeks: number): { dayItems: DayCount[]; weekItems: WeekCount[] } {
  const days = weeks * 7;
  const counts = new Map<string, number>();
  for (let offset = 1 - days; offset <= 0; offset++) counts.set(dayFromToday(clock, offset), 0);
  for (const done of completions) {
    const day = localDay(done.completedAt, clock);
    const count = counts.get(day);
    if (count !== undefined) counts.set(day, count + 1);
  }
  const dayItems = [...counts].map(([date, totalCount]) => ({ date, totalCount }));
  const weekItems: WeekCount[] = [];
  for (let start = 0; start < dayItems.length; start += 7) {
    const week = dayItems.slice(start, start + 7);
    weekItems.push({ fromDate: week[0].date, toDate: week[week.length - 1].date, totalCount: week.reduce((sum, day) => sum + day.totalCount, 0) });
  }
  return { dayItems, weekItems };
}
