/** A run of consecutive periods that met a goal: `{count, start, end}` with ISO dates. */
export interface Streak {
  readonly count: number;
  readonly start: string;
  readonly end: string;
}

export interface StreakSummary {
  readonly current: Streak;
  readonly last: Streak;
  readonly max: Streak;
}

/**
 * Streaks over consecutive periods (days or weeks), oldest first. A period that met the goal
 * extends the run; a skipped period (a day off) neither extends nor breaks it; the current
 * period not yet meeting the goal does not break the current streak either (the day is not over).
 */
export function streaks(periods: ReadonlyArray<{ start: string; end: string; met: boolean; skipped?: boolean }>, today: string): StreakSummary {
  const empty: Streak = { count: 0, start: today, end: today };
  const runs: Streak[] = [];
  let run: Streak | null = null;
  periods.forEach((period, index) => {
    const isCurrent = index === periods.length - 1;
    if (period.met) {
      run = run ? { count: run.count + 1, start: run.start, end: period.end } : { count: 1, start: period.start, end: period.end };
    } else if (!period.skipped && !isCurrent && run) {
      runs.push(run);
      run = null;
    }
  });
  const open: Streak | null = run;
  const closed = open ? [...runs, open] : runs;
  const max = closed.reduce<Streak>((best, candidate) => (candidate.count > best.count ? candidate : best), empty);
  return { current: open ?? empty, last: runs.at(-1) ?? empty, max };
}
