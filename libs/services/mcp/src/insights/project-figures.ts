import { type Clock, dayFromToday, isPast, localDay } from './local-calendar';

/** An active task as the Sync API lists it (the fields the figures read). */
export interface ActiveTask {
  readonly id: string;
  readonly content: string;
  readonly addedAt: string | null;
  readonly due: string | null;
  readonly deadline: string | null;
  readonly priority: number;
  readonly labels: readonly string[];
}

/** A task of the completed history: when it was added and when it was completed. */
export interface Completion {
  readonly id: string;
  readonly projectId: string;
  readonly addedAt: string | null;
  readonly completedAt: string;
}

/** How many recent days of completions the figures read (the completed-history window asked for). */
export const RECENT_DAYS = 28;

export interface ProjectMetrics {
  /** Tasks not completed (subtasks included). */
  readonly activeTasks: number;
  /** Tasks completed and kept in the project (the Sync API's completed_info, plus checked subtasks). */
  readonly completedTasks: number;
  /** completedTasks out of all tasks, 0-100, rounded. */
  readonly progressPercent: number;
  /** Active tasks whose due date (or time) has passed. */
  readonly overdueTasks: number;
  /** Active tasks whose deadline has passed. */
  readonly pastDeadlineTasks: number;
  /** Active tasks without a due date. */
  readonly unscheduledTasks: number;
  /** Tasks added in the last 7 days (today included), still active or completed since. */
  readonly tasksAddedLast7Days: number;
  /** Tasks completed in the last 7 days (today included). */
  readonly tasksCompletedLast7Days: number;
  /** Tasks completed in the 7 days before those. */
  readonly tasksCompletedPrevious7Days: number;
  /** Mean days from added to completed over the last 28 days' completions; null without any. */
  readonly averageCompletionDays: number | null;
}

/** The hosted server's statuses; ERROR is never computed here (the figures come from data, not a model). */
export const HEALTH_STATUSES = ['UNKNOWN', 'EXCELLENT', 'ON_TRACK', 'AT_RISK', 'CRITICAL', 'ERROR'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export interface Attention {
  readonly taskId: string;
  readonly content: string;
  readonly reason: 'overdue' | 'past_deadline';
  /** The due date or deadline that passed. */
  readonly date: string;
}

const DAY_MS = 86_400_000;

function withinLastDays(instant: string | null, days: number, clock: Clock): boolean {
  return instant !== null && localDay(instant, clock) >= dayFromToday(clock, 1 - days);
}

function isLate(task: ActiveTask, clock: Clock): boolean {
  return (task.due !== null && isPast(task.due, clock)) || (task.deadline !== null && isPast(task.deadline, clock));
}

/** A project's figures from its active tasks, its completed count and its recent completions. */
export function projectMetrics(active: readonly ActiveTask[], completedTasks: number, recent: readonly Completion[], clock: Clock): ProjectMetrics {
  const total = active.length + completedTasks;
  const completedIn = (from: number, to: number) => recent.filter((done) => {
    const day = localDay(done.completedAt, clock);
    return day >= dayFromToday(clock, from) && day <= dayFromToday(clock, to);
  }).length;
  const durations = recent.filter((done) => done.addedAt !== null).map((done) => (Date.parse(done.completedAt) - Date.parse(done.addedAt!)) / DAY_MS);
  return {
    activeTasks: active.length,
    completedTasks,
    progressPercent: total === 0 ? 0 : Math.round((completedTasks / total) * 100),
    overdueTasks: active.filter((task) => task.due !== null && isPast(task.due, clock)).length,
    pastDeadlineTasks: active.filter((task) => task.deadline !== null && isPast(task.deadline, clock)).length,
    unscheduledTasks: active.filter((task) => task.due === null).length,
    tasksAddedLast7Days: active.filter((task) => withinLastDays(task.addedAt, 7, clock)).length + recent.filter((done) => withinLastDays(done.addedAt, 7, clock)).length,
    tasksCompletedLast7Days: completedIn(-6, 0),
    tasksCompletedPrevious7Days: completedIn(-13, -7),
    averageCompletionDays: durations.length === 0 ? null : Math.round((durations.reduce((sum, days) => sum + Math.max(0, days), 0) / durations.length) * 10) / 10,
  };
}

/**
 * The status and why, by fixed rules over the figures (so the same data always gets the same
 * answer, and the reasons say which rule decided):
 * UNKNOWN: no tasks at all. CRITICAL: late tasks (overdue or past deadline) are more than half of
 * the active ones, or some are late and nothing was completed in 14 days. AT_RISK: some task is
 * late, or the project stalled (active tasks, nothing completed in 14 days nor added in 7).
 * EXCELLENT: nothing late and everything done, or at least as many completed as added in the
 * last 7 days (and some completed). ON_TRACK: the rest.
 */
export function healthOf(metrics: ProjectMetrics, lateTasks: number): { status: HealthStatus; reasons: string[] } {
  const { activeTasks, completedTasks, tasksAddedLast7Days, tasksCompletedLast7Days, tasksCompletedPrevious7Days } = metrics;
  const completed14 = tasksCompletedLast7Days + tasksCompletedPrevious7Days;
  if (activeTasks === 0 && completedTasks === 0) return { status: 'UNKNOWN', reasons: ['The project has no tasks yet.'] };
  const late = `${lateTasks} of ${activeTasks} active tasks are overdue or past their deadline.`;
  if (lateTasks > 0 && (lateTasks * 2 > activeTasks || completed14 === 0)) {
    return { status: 'CRITICAL', reasons: [late, ...(completed14 === 0 ? ['Nothing was completed in the last 14 days.'] : [])] };
  }
  if (lateTasks > 0) return { status: 'AT_RISK', reasons: [late] };
  if (activeTasks > 0 && completed14 === 0 && tasksAddedLast7Days === 0) {
    return { status: 'AT_RISK', reasons: ['Nothing was completed in the last 14 days, nor added in the last 7: the project has stalled.'] };
  }
  if (activeTasks === 0) return { status: 'EXCELLENT', reasons: ['Every task is completed.'] };
  if (tasksCompletedLast7Days > 0 && tasksCompletedLast7Days >= tasksAddedLast7Days) {
    return { status: 'EXCELLENT', reasons: [`Nothing is late, and ${tasksCompletedLast7Days} tasks were completed in the last 7 days against ${tasksAddedLast7Days} added.`] };
  }
  return { status: 'ON_TRACK', reasons: ['Nothing is late.'] };
}

/** The active tasks that are late, most overdue first, at most `limit`. */
export function lateTasks(active: readonly ActiveTask[], clock: Clock, limit = 50): Attention[] {
  const found: Attention[] = [];
  for (const task of active) {
    if (task.due !== null && isPast(task.due, clock)) found.push({ taskId: task.id, content: task.content, reason: 'overdue', date: task.due });
    else if (task.deadline !== null && isPast(task.deadline, clock)) found.push({ taskId: task.id, content: task.content, reason: 'past_deadline', date: task.deadline });
  }
  return found.sort((a, b) => a.date.localeCompare(b.date)).slice(0, limit);
}

/** How many active tasks are late (overdue or past deadline, each task once). */
export function countLate(active: readonly ActiveTask[], clock: Clock): number {
  return active.filter((task) => isLate(task, clock)).length;
}
