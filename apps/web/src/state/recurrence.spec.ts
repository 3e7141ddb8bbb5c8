import { composeDue, recurrenceOf, typedTime } from './recurrence';

describe('recurrence', () => {
  it('reads the Repeat choice from a due string, time or not', () => {
    expect(recurrenceOf('')).toBe('none');
    expect(recurrenceOf('tomorrow 9am')).toBe('none');
    expect(recurrenceOf('every day')).toBe('day');
    expect(recurrenceOf('Every  day at 9am')).toBe('day');
    expect(recurrenceOf('daily 14:30')).toBe('day');
    expect(recurrenceOf('every weekday')).toBe('weekday');
    expect(recurrenceOf('every workday at 8:15 am')).toBe('weekday');
    expect(recurrenceOf('every week')).toBe('week');
    expect(recurrenceOf('weekly')).toBe('week');
    expect(recurrenceOf('every month at 6pm')).toBe('month');
    expect(recurrenceOf('every year')).toBe('year');
    expect(recurrenceOf('annually')).toBe('year');
  });

  it('calls other recurrences custom: worded so, or said so by the server', () => {
    expect(recurrenceOf('every monday')).toBe('custom');
    expect(recurrenceOf('every 3 days at 9am')).toBe('custom');
    expect(recurrenceOf('ev! week')).toBe('custom');
    expect(recurrenceOf('cada lunes', true)).toBe('custom');
    expect(recurrenceOf('next monday', false)).toBe('none');
  });

  it('finds a typed time in its usual forms', () => {
    expect(typedTime('tomorrow at 9am')).toBe('9am');
    expect(typedTime('friday 9:30 pm')).toBe('9:30 pm');
    expect(typedTime('every day @ 14:00')).toBe('14:00');
    expect(typedTime('dec 12')).toBeNull();
    expect(typedTime('in 2 weeks')).toBeNull();
  });

  it('writes each choice as the server parses it, keeping the typed time', () => {
    expect(composeDue('', 'day')).toBe('every day');
    expect(composeDue('tomorrow 9am', 'weekday')).toBe('every weekday at 9am');
    expect(composeDue('every day at 9am', 'week')).toBe('every week at 9am');
    expect(composeDue('friday 18:30', 'month')).toBe('every month at 18:30');
    expect(composeDue('every week', 'year')).toBe('every year');
  });

  it('turns a recurrence off at the occurrence it is at, and leaves one-off and custom strings alone', () => {
    expect(composeDue('every day at 9am', 'none', '2026-11-28T09:00:00')).toBe('2026-11-28 at 9am');
    expect(composeDue('every monday', 'none', '2026-11-30')).toBe('2026-11-30');
    expect(composeDue('every week', 'none')).toBe('');
    expect(composeDue('tomorrow 9am', 'none', '2026-11-28')).toBe('tomorrow 9am');
    expect(composeDue('every 3 days', 'custom')).toBe('every 3 days');
  });
});
