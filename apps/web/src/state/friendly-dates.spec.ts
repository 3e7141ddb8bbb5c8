import { clockTime, dateSettings, friendlyDay, friendlyDue, isoWeekday, shortDate, weekStart } from './friendly-dates';

const dayFirst = dateSettings({ id: '1', date_format: 0, time_format: 0, start_day: 1 });
const monthFirst = dateSettings({ id: '1', date_format: 1, time_format: 1, start_day: 7 });
const today = '2026-11-28'; // a Saturday

describe('friendly dates', () => {
  it('names the near days and writes the others by the date format', () => {
    expect(friendlyDay('2026-11-28', today, dayFirst)).toBe('Today');
    expect(friendlyDay('2026-11-29', today, dayFirst)).toBe('Tomorrow');
    expect(friendlyDay('2026-11-27', today, dayFirst)).toBe('Yesterday');
    expect(friendlyDay('2026-12-02', today, dayFirst)).toBe('Wednesday');
    expect(friendlyDay('2026-11-30', today, dayFirst)).toBe('Monday');
    expect(shortDate('2026-11-30', today, dayFirst)).toBe('Mon 30 Nov');
    expect(shortDate('2026-11-30', today, monthFirst)).toBe('Mon Nov 30');
    expect(friendlyDay('2026-12-07', today, monthFirst)).toBe('Mon Dec 7');
    expect(friendlyDay('2027-01-04', today, dayFirst)).toBe('Mon 4 Jan 2027');
    expect(friendlyDay('2026-11-01', today, dayFirst)).toBe('Sun 1 Nov');
  });

  it('adds a floating due’s time by the time format, and none for a full day', () => {
    expect(friendlyDue({ date: '2026-11-29T17:00:00' }, today, dayFirst)).toBe('Tomorrow 17:00');
    expect(friendlyDue({ date: '2026-11-29T17:00:00' }, today, monthFirst)).toBe('Tomorrow 5:00 PM');
    expect(friendlyDue({ date: '2026-11-28' }, today, dayFirst)).toBe('Today');
    expect(clockTime(0, 5, monthFirst)).toBe('12:05 AM');
    expect(clockTime(12, 0, monthFirst)).toBe('12:00 PM');
    expect(clockTime(9, 30, dayFirst)).toBe('09:30');
  });

  it('starts a week on the person’s first weekday', () => {
    expect(isoWeekday('2026-11-28')).toBe(6);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(weekStart('2026-11-28', dayFirst)).toBe('2026-11-23');
    expect(weekStart('2026-11-28', monthFirst)).toBe('2026-11-22');
    expect(weekStart('2026-11-29', monthFirst)).toBe('2026-11-29');
  });

  it('falls back to Monday, 24 hours and the day first without settings', () => {
    expect(dateSettings(null)).toEqual({ monthFirst: false, twelveHour: false, startDay: 1 });
    expect(dateSettings({ id: '1', start_day: 9 }).startDay).toBe(1);
  });
});
