import { SyncEvents } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
import { DateTime } from 'luxon';
import type { KarmaChange, KarmaRepository, KarmaState } from './karma.repository';

/**
 * Karma and goals: a simple, deterministic rule (Todoist's own is not published).
 *
 * - Completing a task (item_complete, item_close, the last occurrence of a recurring task) earns
 *   +1 karma; the subtasks closed with it earn nothing more. Reopening a completed task takes
 *   that point back (karma never goes below 0). A moving occurrence of a recurring task is not
 *   a completion and earns nothing. With karma_disabled, karma does not change.
 * - karma_trend is the direction of the last change: `up` or `down` (`none` before any).
 * - Levels by karma, as Todoist names them: 1 Beginner 0, 2 Novice 500, 3 Intermediate 2,500,
 *   4 Professional 5,000, 5 Expert 7,500, 6 Master 10,000, 7 Grandmaster 20,000, 8 Enlightened
 *   50,000. The level kept is the highest ever reached: each level is announced once
 *   (SyncEvents.karmaLevelReached, a karma_level live notification), not again after a fall.
 * - Goals: after each completion, today's and this week's completions are counted as the stats
 *   count them (the user's tasks, by completion time, in the user's zone; the week starts on the
 *   user's start_day). When today's count reaches daily_goal, or the week's reaches weekly_goal,
 *   SyncEvents.goalReached is emitted, once per day or week. Not in vacation mode; the daily
 *   goal not on a day off (ignore_days, days_off), the weekly goal on any day of the week.
 *   A goal of 0 is no goal.
 */
export const KARMA_LEVELS = [
  { level: 1, name: 'Beginner', from: 0 },
  { level: 2, name: 'Novice', from: 500 },
  { level: 3, name: 'Intermediate', from: 2_500 },
  { level: 4, name: 'Professional', from: 5_000 },
  { level: 5, name: 'Expert', from: 7_500 },
  { level: 6, name: 'Master', from: 10_000 },
  { level: 7, name: 'Grandmaster', from: 20_000 },
  { level: 8, name: 'Enlightened', from: 50_000 },
] as const;

export const KARMA_PER_COMPLETION = 1;

export function karmaLevelOf(karma: number): number {
  return KARMA_LEVELS.filter((level) => karma >= level.from).at(-1)?.level ?? 1;
}

/** The day and week a moment falls in, in the user's zone (an unknown zone counts as UTC). */
export interface GoalPeriods {
  readonly day: string;
  readonly week: string;
  readonly dayStart: Date;
  readonly weekStart: Date;
  /** 1 = Monday ... 7 = Sunday, as days_off holds them. */
  readonly weekday: number;
}

export function goalPeriods(timezone: string, startDay: number, now: Date): GoalPeriods {
  const local = DateTime.fromJSDate(now).setZone(timezone);
  const today = (local.isValid ? local : DateTime.fromJSDate(now).setZone('UTC')).startOf('day');
  const weekStart = today.minus({ days: (today.weekday - startDay + 7) % 7 });
  return { day: today.toISODate()!, week: weekStart.toISODate()!, dayStart: today.toJSDate(), weekStart: weekStart.toJSDate(), weekday: today.weekday };
}

export interface GoalReach {
  readonly goal: 'daily' | 'weekly';
  readonly count: number;
  readonly target: number;
  readonly period: string;
}

/** Which goals may still be announced in these periods (nothing to count when none may). */
export function openGoals(state: KarmaState, periods: GoalPeriods): { daily: boolean; weekly: boolean } {
  if (state.vacation_mode) return { daily: false, weekly: false };
  return {
    daily: state.daily_goal > 0 && state.daily_goal_reached_on !== periods.day && !state.days_off.includes(periods.weekday),
    weekly: state.weekly_goal > 0 && state.weekly_goal_reached_on !== periods.week,
  };
}

/** The goals these counts reach, of those still open. */
export function goalsReached(state: KarmaState, periods: GoalPeriods, counts: { day: number; week: number }): GoalReach[] {
  const open = openGoals(state, periods);
  const reached: GoalReach[] = [];
  if (open.daily && counts.day >= state.daily_goal) reached.push({ goal: 'daily', count: counts.day, target: state.daily_goal, period: periods.day });
  if (open.weekly && counts.week >= state.weekly_goal) reached.push({ goal: 'weekly', count: counts.week, target: state.weekly_goal, period: periods.week });
  return reached;
}

/** Karma after a change by `delta`, and the levels newly reached (none unless it rose past the highest before). */
export function karmaAfter(state: Pick<KarmaState, 'karma' | 'karma_level'>, delta: number): { change: KarmaChange; newLevels: number[] } {
  const karma = Math.max(0, state.karma + delta);
  const reached = karmaLevelOf(karma);
  const level = Math.max(state.karma_level, reached);
  const newLevels = KARMA_LEVELS.map((entry) => entry.level).filter((entry) => entry > state.karma_level && entry <= reached);
  return { change: { karma, trend: delta >= 0 ? 'up' : 'down', lastChange: karma - state.karma, level }, newLevels };
}

/**
 * A task was completed by the user (whose row the command holds locked): karma, level and goals,
 * in the command's transaction and version. Call after the task is written as completed.
 */
export async function recordCompletion(repository: KarmaRepository, tx: Tx, userId: string, version: string, now: Date = new Date()): Promise<void> {
  const state = await repository.state(tx.manager, userId);
  if (!state) return;
  if (!state.karma_disabled) {
    const { change, newLevels } = karmaAfter(state, KARMA_PER_COMPLETION);
    await repository.setKarma(tx.manager, userId, change, version);
    for (const level of newLevels) await tx.emit(SyncEvents.karmaLevelReached, { userId, level, karma: change.karma });
  }
  const periods = goalPeriods(state.timezone, state.start_day, now);
  const open = openGoals(state, periods);
  if (!open.daily && !open.weekly) return;
  const counts = await repository.completionsSince(tx.manager, userId, periods.dayStart, periods.weekStart);
  for (const reach of goalsReached(state, periods, counts)) {
    await repository.setGoalReached(tx.manager, userId, reach.goal, reach.period);
    await tx.emit(SyncEvents.goalReached, { userId, ...reach });
  }
}

/** A completed task was reopened by the user: its point is taken back (goals already reached stay reached). */
export async function recordReopening(repository: KarmaRepository, tx: Tx, userId: string, version: string): Promise<void> {
  const state = await repository.state(tx.manager, userId);
  if (!state || state.karma_disabled || state.karma === 0) return;
  await repository.setKarma(tx.manager, userId, karmaAfter(state, -KARMA_PER_COMPLETION).change, version);
}
