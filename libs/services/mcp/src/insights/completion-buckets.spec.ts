import { completionBuckets } from './completion-buckets';
import { clockOf } from './local-calendar';

const done = (completedAt: string) => ({ id: completedAt, projectId: '1', addedAt: null, completedAt });

describe('completions per day and per week', () => {
  const clock = clockOf(new Date('2026-03-14T12:00:00Z'), 'UTC');

  it('counts each of the last weeks\' days, zeros included, oldest first, today last', () => {
    const { dayItems } = completionBuckets([done('2026-03-14T08:00:00Z'), done('2026-03-14T09:00:00Z'), done('2026-03-01T10:00:00Z'), done('2026-02-20T10:00:00Z')], clock, 2);
    expect(dayItems).toHaveLength(14);
    expect(dayItems[0]).toEqual({ date: '2026-03-01', totalCount: 1 });
    expect(dayItems[13]).toEqual({ date: '2026-03-14', totalCount: 2 });
    expect(dayItems.reduce((sum, day) => sum + day.totalCount, 0)).toBe(3);
  });

  it('rolls the days up into 7-day stretches ending today', () => {
    const { weekItems } = completionBuckets([done('2026-03-14T08:00:00Z'), done('2026-03-07T23:00:00Z'), done('2026-03-08T00:30:00Z')], clock, 2);
    expect(weekItems).toEqual([
      { fromDate: '2026-03-01', toDate: '2026-03-07', totalCount: 1 },
      { fromDate: '2026-03-08', toDate: '2026-03-14', totalCount: 2 },
    ]);
  });

  it('puts a completion on the user\'s day, not UTC\'s', () => {
    const tokyo = clockOf(new Date('2026-03-14T12:00:00Z'), 'Asia/Tokyo');
    const { dayItems } = completionBuckets([done('2026-03-13T20:00:00Z')], tokyo, 1);
    expect(dayItems.find((day) => day.totalCount === 1)?.date).toBe('2026-03-14');
  });
});
