import { goalPeriods, goalsReached, karmaAfter, karmaLevelOf } from './karma';
import type { KarmaState } from './karma.repository';

const state = (overrides: Partial<KarmaState> = {}): KarmaState => ({
  timezone: 'UTC',
  start_day: 1,
  daily_goal: 5,
  weekly_goal: 25,
  days_off: [6, 7],
  vacation_mode: false,
  karma_disabled: false,
  karma: 0,
  karma_level: 1,
  daily_goal_reached_on: null,
  weekly_goal_reached_on: null,
  ...overrides,
});

describe('karma rule', () => {
  it('names the level of each threshold, and the one below it', () => {
    expect([0, 499, 500, 2_499, 2_500, 5_000, 7_500, 9_999, 10_000, 20_000, 49_999, 50_000, 1e9].map(karmaLevelOf)).toEqual([1, 1, 2, 2, 3, 4, 5, 5, 6, 7, 7, 8, 8]);
  });

  it('announces every level a change newly reaches, none below the highest reached, and never goes below 0', () => {
    expect(karmaAfter({ karma: 499, karma_level: 1 }, 2_100).newLevels).toEqual([2, 3]);
    expect(karmaAfter({ karma: 499, karma_level: 2 }, 1)).toEqual({ change: { karma: 500, trend: 'up', lastChange: 1, level: 2 }, newLevels: [] });
    expect(karmaAfter({ karma: 500, karma_level: 2 }, -1).change).toEqual({ karma: 499, trend: 'down', lastChange: -1, level: 2 });
    expect(karmaAfter({ karma: 0, karma_level: 1 }, -1).change).toMatchObject({ karma: 0, lastChange: 0 });
  });

  it('places a moment in the user’s day and week (their zone, their first weekday)', () => {
    // Sunday 2026-11-29 23:30 UTC is Monday 08:30 in Tokyo.
    const moment = new Date('2026-11-29T23:30:00Z');
    expect(goalPeriods('UTC', 1, moment)).toMatchObject({ day: '2026-11-29', week: '2026-11-23', weekday: 7 });
    expect(goalPeriods('Asia/Tokyo', 1, moment)).toMatchObject({ day: '2026-11-30', week: '2026-11-30', weekday: 1, dayStart: new Date('2026-11-29T15:00:00Z') });
    expect(goalPeriods('UTC', 7, moment)).toMatchObject({ week: '2026-11-29' });
    expect(goalPeriods('Not/AZone', 1, moment)).toMatchObject({ day: '2026-11-29' });
  });

  it('reaches a goal at its count, once per period, not on vacation, the daily one not on a day off', () => {
    const wednesday = goalPeriods('UTC', 1, new Date('2026-11-25T12:00:00Z'));
    const saturday = goalPeriods('UTC', 1, new Date('2026-11-28T12:00:00Z'));
    expect(goalsReached(state(), wednesday, { day: 4, week: 24 })).toEqual([]);
    expect(goalsReached(state(), wednesday, { day: 5, week: 25 })).toEqual([
      { goal: 'daily', count: 5, target: 5, period: '2026-11-25' },
      { goal: 'weekly', count: 25, target: 25, period: '2026-11-23' },
    ]);
    expect(goalsReached(state({ daily_goal_reached_on: '2026-11-25', weekly_goal_reached_on: '2026-11-23' }), wednesday, { day: 9, week: 30 })).toEqual([]);
    expect(goalsReached(state({ daily_goal_reached_on: '2026-11-24' }), wednesday, { day: 5, week: 0 })).toHaveLength(1);
    expect(goalsReached(state({ vacation_mode: true }), wednesday, { day: 5, week: 25 })).toEqual([]);
    expect(goalsReached(state(), saturday, { day: 5, week: 25 }).map((reach) => reach.goal)).toEqual(['weekly']);
    expect(goalsReached(state({ daily_goal: 0, weekly_goal: 0 }), wednesday, { day: 0, week: 0 })).toEqual([]);
  });
});
