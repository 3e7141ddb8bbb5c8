import { parseDeadline } from './deadline';
import { BERLIN, NOW, thrownDomainError } from '../testing/due-test-helpers';
import { nextOccurrence } from './next-occurrence';
import { parseDue } from './parse-due';

/** Issue #11: a due in year 0000 was stored, and every date filter of its user failed from then on. */
describe('the calendar range (years 0001-9999) of every parsed date', () => {
  it.each([
    [{ date: '0000-01-01' }],
    [{ date: '0000-01-01T10:00:00' }],
    [{ date: '0000-06-01T10:00:00Z' }],
    [{ date: '0001-01-01T00:30:00+01:00' }],
    [{ string: '0000-01-01' }],
    [{ string: 'x 0000-01-01' }],
    [{ string: 'in 9999 years' }],
  ])('refuses the due %o with a coded error naming due', (input) => {
    const err = thrownDomainError(() => parseDue(input, BERLIN));
    expect({ code: err.code, argument: err.extra['argument'] }).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'due' });
  });

  it.each([[{ date: '0001-01-01' }, '0001-01-01'], [{ date: '9999-12-31' }, '9999-12-31'], [{ date: '9999-12-31T23:59:00' }, '9999-12-31T23:59:00']])('keeps the edge %o', (input, date) => {
    expect(parseDue(input, BERLIN)?.date).toBe(date);
  });

  it('refuses a deadline in year 0000', () => {
    const err = thrownDomainError(() => parseDeadline({ date: '0000-01-01' }));
    expect({ code: err.code, argument: err.extra['argument'] }).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'deadline' });
  });

  it('ends a recurrence whose next occurrence would fall after 9999-12-31', () => {
    const due = { date: '9999-06-01', timezone: null, string: 'every year', lang: 'en', is_recurring: true };
    expect(nextOccurrence(due, { completedAt: NOW, timezone: 'Europe/Berlin' })).toBeNull();
    expect(nextOccurrence({ ...due, date: '2026-06-01' }, { completedAt: NOW, timezone: 'Europe/Berlin' })?.date).toBe('2027-06-01');
  });
});
