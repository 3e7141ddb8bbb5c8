import { streaks } from './streaks';

const day = (date: string, met: boolean, skipped = false) => ({ start: date, end: date, met, skipped });

describe('streaks', () => {
  it('counts the run that reaches today as current, and the longest as max', () => {
    const result = streaks([day('2026-11-01', true), day('2026-11-02', true), day('2026-11-03', true), day('2026-11-04', false), day('2026-11-05', true), day('2026-11-06', true)], '2026-11-06');
    expect(result.current).toEqual({ count: 2, start: '2026-11-05', end: '2026-11-06' });
    expect(result.last).toEqual({ count: 3, start: '2026-11-01', end: '2026-11-03' });
    expect(result.max).toEqual({ count: 3, start: '2026-11-01', end: '2026-11-03' });
  });

  it('does not break the current streak on a day that is not over yet', () => {
    const result = streaks([day('2026-11-04', true), day('2026-11-05', true), day('2026-11-06', false)], '2026-11-06');
    expect(result.current).toEqual({ count: 2, start: '2026-11-04', end: '2026-11-05' });
  });

  it('lets a day off pass without breaking or extending the run', () => {
    const result = streaks([day('2026-11-06', true), day('2026-11-07', false, true), day('2026-11-08', true), day('2026-11-09', false)], '2026-11-09');
    expect(result.current).toEqual({ count: 2, start: '2026-11-06', end: '2026-11-08' });
  });

  it('answers zero-length streaks on today when no goal was ever met', () => {
    const result = streaks([day('2026-11-05', false), day('2026-11-06', false)], '2026-11-06');
    const none = { count: 0, start: '2026-11-06', end: '2026-11-06' };
    expect(result).toEqual({ current: none, last: none, max: none });
  });
});
