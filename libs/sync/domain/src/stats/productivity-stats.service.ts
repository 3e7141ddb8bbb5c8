import type { ApiProductivityStats } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { EntityManager } from 'typeorm';
import type { UserProfile } from '../users/user-profile.model';
import { UserProfileRepository } from '../users/user-profile.repository';
import { dayNumber, isoDateOf, isoWeekdayOf } from './calendar-days';
import { CompletionStatsRepository, type DayCompletions, STATS_HISTORY_DAYS } from './completion-stats.repository';
import { streaks } from './streaks';

const DAYS_REPORTED = 7;
const WEEKS_REPORTED = 4;

interface Period {
  readonly start: string;
  readonly end: string;
  readonly days: readonly string[];
}

function zoneOf(profile: UserProfile): string {
  return DateTime.now().setZone(profile.timezone).isValid ? profile.timezone : 'UTC';
}

/** `{items: [{id: project, completed}], total_completed}` for a set of days. */
function completionsOf(byDay: ReadonlyMap<string, DayCompletions[]>, days: readonly string[]) {
  const perProject = new Map<string, number>();
  for (const day of days) for (const row of byDay.get(day) ?? []) perProject.set(row.projectId, (perProject.get(row.projectId) ?? 0) + row.count);
  const items = [...perProject].map(([id, completed]) => ({ id, completed }));
  return { items, total_completed: items.reduce((sum, item) => sum + item.completed, 0) };
}

/**
 * Productivity stats (`GET /api/v1/tasks/completed/stats`, the sync `stats` resource): the last
 * 7 days and 4 weeks of completions by project, and daily/weekly goal streaks over a year, all
 * in the user's zone and week, and the user's karma (stats/karma.ts).
 */
@Injectable()
export class ProductivityStatsService {
  constructor(
    private readonly completions: CompletionStatsRepository,
    private readonly profiles: UserProfileRepository,
  ) {}

  async stats(manager: EntityManager, userId: string, now = new Date()): Promise<ApiProductivityStats> {
    const profile = await this.profiles.find(manager, userId);
    if (!profile) throw new DomainError('USER_NOT_FOUND');
    const zone = zoneOf(profile);
    const today = DateTime.fromJSDate(now).setZone(zone).startOf('day');
    const first = today.minus({ days: STATS_HISTORY_DAYS - 1 });
    const rows = await this.completions.completionsByDay(manager, userId, zone, first.toJSDate());
    const byDay = new Map<string, DayCompletions[]>();
    for (const row of rows) byDay.set(row.day, [...(byDay.get(row.day) ?? []), row]);

    // Zoned only to find the user's today and the first day; the days between are calendar arithmetic.
    const todayDay = dayNumber(today.toISODate()!);
    const firstDay = dayNumber(first.toISODate()!);
    const days: Period[] = Array.from({ length: STATS_HISTORY_DAYS }, (_, index) => {
      const day = isoDateOf(firstDay + index);
      return { start: day, end: day, days: [day] };
    });
    const weeks = this.weeks(firstDay, todayDay, profile.start_day);
    // A period's total alone (the streaks' test, 366 days and 53 weeks): no per-project lists.
    const dailyTotal = (period: Period) => {
      let total = 0;
      for (const day of period.days) for (const row of byDay.get(day) ?? []) total += row.count;
      return total;
    };
    const daysOff = new Set(profile.days_off);
    const todayIso = isoDateOf(todayDay);
    const daily = streaks(
      days.map((period, index) => ({ ...period, met: dailyTotal(period) >= profile.daily_goal, skipped: daysOff.has(isoWeekdayOf(firstDay + index)) })),
      todayIso,
    );
    const weekly = streaks(
      weeks.map((period) => ({ ...period, met: dailyTotal(period) >= profile.weekly_goal })),
      todayIso,
    );
    const projectIds = [...new Set(rows.map((row) => row.projectId))];

    return {
      completed_count: await this.completions.completedCount(manager, userId),
      days_items: days
        .slice(-DAYS_REPORTED)
        .reverse()
        .map((period) => ({ date: period.start, ...completionsOf(byDay, period.days) })),
      week_items: weeks
        .slice(-WEEKS_REPORTED)
        .reverse()
        .map((period) => ({ from: period.start, to: period.end, ...completionsOf(byDay, period.days) })),
      goals: {
        daily_goal: profile.daily_goal,
        weekly_goal: profile.weekly_goal,
        ignore_days: profile.days_off,
        vacation_mode: profile.vacation_mode ? 1 : 0,
        karma_disabled: profile.karma_disabled ? 1 : 0,
        user: profile.full_name,
        user_id: profile.id,
        current_daily_streak: daily.current,
        last_daily_streak: daily.last,
        max_daily_streak: daily.max,
        current_weekly_streak: weekly.current,
        last_weekly_streak: weekly.last,
        max_weekly_streak: weekly.max,
      },
      // Karma by the rule of stats/karma.ts; karma_last_update is its last change (+1, -1).
      karma: profile.karma,
      karma_graph_data: [],
      karma_last_update: profile.karma_last_change,
      karma_trend: profile.karma_trend,
      karma_update_reasons: [],
      project_colors: await this.completions.projectColors(manager, projectIds),
    };
  }

  /** Whole weeks (starting on the user's start day) from the one holding `first` to today's (day numbers, see calendar-days.ts). */
  private weeks(first: number, today: number, startDay: number): Period[] {
    const periods: Period[] = [];
    for (let start = first - ((isoWeekdayOf(first) - startDay + 7) % 7); start <= today; start += 7) {
      const days = Array.from({ length: 7 }, (_, index) => isoDateOf(start + index));
      periods.push({ start: days[0], end: days[6], days });
    }
    return periods;
  }
}
