import { BERLIN, NOW, thrownDomainError } from '../testing/due-test-helpers';
import { type DateContext } from './due.model';
import { parseDue } from './parse-due';

// Golden table: due string -> date and is_recurring, for the user in Europe/Berlin on
// Wednesday 2026-11-18 at 11:00 (see due-test-helpers). Weekdays of the weeks involved:
// Mon 16, Wed 18, Fri 20, Sat 21, Mon 23, Mon 30 November; Tue 1, Mon 7 December.
describe('parseDue — English golden table', () => {
  it.each([
    // relative days
    ['today', '2026-11-18', false],
    ['tod', '2026-11-18', false],
    ['Today', '2026-11-18', false],
    ['  TODAY  ', '2026-11-18', false],
    ['tomorrow', '2026-11-19', false],
    ['tom', '2026-11-19', false],
    ['yesterday', '2026-11-17', false],
    // weekday names: the coming one, today excluded; "next" is the one after; "this" may be today
    ['monday', '2026-11-23', false],
    ['mon', '2026-11-23', false],
    ['tuesday', '2026-11-24', false],
    ['wednesday', '2026-11-25', false],
    ['thursday', '2026-11-19', false],
    ['friday', '2026-11-20', false],
    ['fri', '2026-11-20', false],
    ['saturday', '2026-11-21', false],
    ['sunday', '2026-11-22', false],
    ['on monday', '2026-11-23', false],
    ['next monday', '2026-11-30', false],
    ['next friday', '2026-11-27', false],
    ['next wednesday', '2026-12-02', false],
    ['this friday', '2026-11-20', false],
    ['this wednesday', '2026-11-18', false],
    ['weekend', '2026-11-21', false],
    ['this weekend', '2026-11-21', false],
    ['next weekend', '2026-11-28', false],
    // periods
    ['next week', '2026-11-23', false],
    ['next month', '2026-12-18', false],
    ['next year', '2027-11-18', false],
    ['in 3 days', '2026-11-21', false],
    ['in 10 days', '2026-11-28', false],
    ['in a week', '2026-11-25', false],
    ['in 2 weeks', '2026-12-02', false],
    ['in 1 month', '2026-12-18', false],
    ['in 2 years', '2028-11-18', false],
    ['3 days ago', '2026-11-15', false],
    ['2 weeks ago', '2026-11-04', false],
    // explicit dates; a date without a year that has passed this year is next year's
    ['Dec 1', '2026-12-01', false],
    ['December 1', '2026-12-01', false],
    ['december 1st', '2026-12-01', false],
    ['1 December', '2026-12-01', false],
    ['1st dec', '2026-12-01', false],
    ['1st of december', '2026-12-01', false],
    ['12/1', '2026-12-01', false],
    ['12/1/2027', '2027-12-01', false],
    ['12/01/27', '2027-12-01', false],
    ['2026-12-01', '2026-12-01', false],
    ['2027-03-05', '2027-03-05', false],
    ['Dec 1 2027', '2027-12-01', false],
    ['Dec 1, 2027', '2027-12-01', false],
    ['1 dec 2027', '2027-12-01', false],
    ['jan 5', '2027-01-05', false],
    ['nov 18', '2026-11-18', false],
    ['nov 17', '2027-11-17', false],
    ['11/17', '2027-11-17', false],
    ['feb 29 2028', '2028-02-29', false],
    // times (floating: no timezone was given)
    ['tomorrow at 5pm', '2026-11-19T17:00:00', false],
    ['tomorrow 5pm', '2026-11-19T17:00:00', false],
    ['5pm tomorrow', '2026-11-19T17:00:00', false],
    ['tomorrow at 17:00', '2026-11-19T17:00:00', false],
    ['tomorrow at 5:30pm', '2026-11-19T17:30:00', false],
    ['tomorrow at 12am', '2026-11-19T00:00:00', false],
    ['tomorrow at 12pm', '2026-11-19T12:00:00', false],
    ['tomorrow at 12', '2026-11-19T12:00:00', false],
    ['today 17:30', '2026-11-18T17:30:00', false],
    ['today at 9', '2026-11-18T09:00:00', false],
    ['at noon', '2026-11-18T12:00:00', false],
    ['at midnight', '2026-11-18T00:00:00', false],
    ['5pm', '2026-11-18T17:00:00', false],
    ['friday at 8am', '2026-11-20T08:00:00', false],
    ['dec 1 at 10:15', '2026-12-01T10:15:00', false],
    ['tomorrow morning', '2026-11-19T09:00:00', false],
    ['tomorrow evening', '2026-11-19T19:00:00', false],
    ['in 2 hours', '2026-11-18T13:00:00', false],
    ['in 30 minutes', '2026-11-18T11:30:00', false],
    ['in 15 hours', '2026-11-19T02:00:00', false],
    // recurring: the first occurrence on or after today
    ['every day', '2026-11-18', true],
    ['daily', '2026-11-18', true],
    ['ev day', '2026-11-18', true],
    ['every day at 9am', '2026-11-18T09:00:00', true],
    ['every morning', '2026-11-18T09:00:00', true],
    ['every afternoon', '2026-11-18T12:00:00', true],
    ['every evening', '2026-11-18T19:00:00', true],
    ['every night', '2026-11-18T22:00:00', true],
    ['every monday', '2026-11-23', true],
    ['every wednesday', '2026-11-18', true],
    ['every tuesday at 17:30', '2026-11-24T17:30:00', true],
    ['every mon, fri', '2026-11-20', true],
    ['every monday, friday', '2026-11-20', true],
    ['every monday and friday', '2026-11-20', true],
    ['every 3 days', '2026-11-18', true],
    ['every other day', '2026-11-18', true],
    ['every week', '2026-11-18', true],
    ['weekly', '2026-11-18', true],
    ['every other week', '2026-11-18', true],
    ['every 2 weeks', '2026-11-18', true],
    ['every other monday', '2026-11-23', true],
    ['every weekday', '2026-11-18', true],
    ['every workday', '2026-11-18', true],
    ['every weekend', '2026-11-21', true],
    ['every 15th', '2026-12-15', true],
    ['every 18th', '2026-11-18', true],
    ['every 1st', '2026-12-01', true],
    ['every 15th, 30th', '2026-11-30', true],
    ['every last day', '2026-11-30', true],
    ['every 3rd friday', '2026-11-20', true],
    ['every last friday', '2026-11-27', true],
    ['every 1st monday', '2026-12-07', true],
    ['every 2nd tuesday', '2026-12-08', true],
    ['every last workday', '2026-11-30', true],
    ['every 15th workday', '2026-11-20', true],
    ['every 15th workday, last workday', '2026-11-20', true],
    ['every month', '2026-11-18', true],
    ['monthly', '2026-11-18', true],
    ['every 2 months', '2026-11-18', true],
    ['every year', '2026-11-18', true],
    ['yearly', '2026-11-18', true],
    ['every jan 27', '2027-01-27', true],
    ['every jan 27th', '2027-01-27', true],
    ['every 27 jan', '2027-01-27', true],
    ['every nov 18', '2026-11-18', true],
    // bounds
    ['every day starting dec 1', '2026-12-01', true],
    ['every monday starting dec 1', '2026-12-07', true],
    ['every day from jan 5 2027', '2027-01-05', true],
    ['every day until dec 31', '2026-11-18', true],
    ['every day ending dec 31', '2026-11-18', true],
    ['every day at 9am starting dec 1 until dec 31', '2026-12-01T09:00:00', true],
    // every! / after: the same first date; only the next one differs (next-occurrence.spec)
    ['every! 3 days', '2026-11-18', true],
    ['ev! week', '2026-11-18', true],
    ['after 3 days', '2026-11-18', true],
  ])('%s -> %s (recurring: %s)', (text, date, recurring) => {
    expect(parseDue({ string: text }, BERLIN)).toEqual({ date, timezone: null, string: text.trim(), lang: 'en', is_recurring: recurring });
  });

  it.each(['no date', 'No due date', '', '   '])('"%s" clears the due', (text) => {
    expect(parseDue({ string: text }, BERLIN)).toBeNull();
  });
});

describe('parseDue — week settings', () => {
  const sunday: DateContext = { now: new Date('2026-11-22T10:00:00Z'), timezone: 'Europe/Berlin' };

  it.each([
    [{ ...BERLIN }, '2026-11-23'],
    [{ ...BERLIN, nextWeekDay: 5 }, '2026-11-27'],
    [{ ...sunday }, '2026-11-23'],
    // With Sunday as the first day, the week after Sunday 22 starts on the 29th.
    [{ ...sunday, startDay: 7 }, '2026-11-30'],
    [{ ...sunday, startDay: 7, nextWeekDay: 7 }, '2026-11-29'],
  ])('next week with %o is %s', (ctx, date) => {
    expect(parseDue({ string: 'next week' }, ctx)?.date).toBe(date);
  });

  it('every weekday on a Saturday starts on Monday', () => {
    const saturday = { now: new Date('2026-11-21T10:00:00Z'), timezone: 'Europe/Berlin' };
    expect(parseDue({ string: 'every weekday' }, saturday)?.date).toBe('2026-11-23');
  });
});

describe('parseDue — zones', () => {
  it.each([
    // `timezone` given: a time becomes the UTC instant of that wall clock in that zone
    ['tomorrow at 5pm', 'America/New_York', '2026-11-19T22:00:00Z', 'America/New_York'],
    ['today at 9am', 'Asia/Tokyo', '2026-11-18T00:00:00Z', 'Asia/Tokyo'],
    ['every day at 9am', 'Europe/Berlin', '2026-11-18T08:00:00Z', 'Europe/Berlin'],
    ['dec 1 at 17:30', 'Europe/Berlin', '2026-12-01T16:30:00Z', 'Europe/Berlin'],
    // a full day has no instant, so the zone is dropped
    ['tomorrow', 'Asia/Tokyo', '2026-11-19', null],
  ])('%s in %s -> %s', (text, zone, date, timezone) => {
    expect(parseDue({ string: text, timezone: zone }, BERLIN)).toEqual({ date, timezone, string: text, lang: 'en', is_recurring: text.startsWith('every') });
  });

  it('"today" is read in the zone of the fixed time, not the server clock', () => {
    // 10:00 UTC on the 18th is already 23:00 on the 18th in Auckland (UTC+13)...
    expect(parseDue({ string: 'today at 9am', timezone: 'Pacific/Auckland' }, BERLIN)?.date).toBe('2026-11-17T20:00:00Z');
    // ...and 11:30 UTC is the 19th there.
    const late = { now: new Date('2026-11-18T11:30:00Z'), timezone: 'Pacific/Auckland' };
    expect(parseDue({ string: 'today' }, late)?.date).toBe('2026-11-19');
  });

  it('null and empty timezones mean floating', () => {
    expect(parseDue({ string: 'tomorrow at 5pm', timezone: null }, BERLIN)?.date).toBe('2026-11-19T17:00:00');
    expect(parseDue({ string: 'tomorrow at 5pm', timezone: '' }, BERLIN)?.timezone).toBeNull();
  });
});

describe('parseDue — due.date forms', () => {
  it.each([
    [{ date: '2026-12-01' }, '2026-12-01', null, 'Dec 1 2026'],
    [{ date: '2026-12-01T17:30:00' }, '2026-12-01T17:30:00', null, 'Dec 1 2026 17:30'],
    [{ date: '2026-12-01T17:30:00.000000' }, '2026-12-01T17:30:00', null, 'Dec 1 2026 17:30'],
    [{ date: '2026-12-01T17:30:45' }, '2026-12-01T17:30:45', null, 'Dec 1 2026 17:30'],
    [{ date: '2026-12-01T16:30:00Z', timezone: 'Europe/Berlin' }, '2026-12-01T16:30:00Z', 'Europe/Berlin', 'Dec 1 2026 17:30'],
    [{ date: '2026-12-01T16:30:00.000000Z', timezone: 'America/New_York' }, '2026-12-01T16:30:00Z', 'America/New_York', 'Dec 1 2026 11:30'],
    // an instant without a zone takes the user's
    [{ date: '2026-12-01T16:30:00Z' }, '2026-12-01T16:30:00Z', 'Europe/Berlin', 'Dec 1 2026 17:30'],
    // a floating time with a zone becomes that zone's instant
    [{ date: '2026-12-01T17:30:00', timezone: 'Europe/Berlin' }, '2026-12-01T16:30:00Z', 'Europe/Berlin', 'Dec 1 2026 17:30'],
    [{ date: '2026-12-01', timezone: 'Europe/Berlin' }, '2026-12-01', null, 'Dec 1 2026'],
    // REST due_datetime
    [{ datetime: '2026-12-01T16:30:00Z' }, '2026-12-01T16:30:00Z', 'Europe/Berlin', 'Dec 1 2026 17:30'],
    [{ datetime: '2026-12-01T17:30:00+01:00' }, '2026-12-01T16:30:00Z', 'Europe/Berlin', 'Dec 1 2026 17:30'],
  ])('%o -> %s %s "%s"', (input, date, timezone, string) => {
    const due = parseDue(input, BERLIN);
    expect(due).toEqual({ date, timezone, string, lang: 'en', is_recurring: false });
    // Round trips: the stored date, and the rendered string, both read back to the same due.
    expect(parseDue({ date: date, timezone }, BERLIN)?.date).toBe(date);
    if (!date.includes(':45')) expect(parseDue({ string, timezone }, BERLIN)?.date).toBe(date);
  });

  it('keeps a string sent with the date, and reads only whether it recurs', () => {
    expect(parseDue({ date: '2026-12-01', string: 'every day' }, BERLIN)).toEqual({
      date: '2026-12-01',
      timezone: null,
      string: 'every day',
      lang: 'en',
      is_recurring: true,
    });
    expect(parseDue({ date: '2026-12-01', string: 'tomorrow', is_recurring: true }, BERLIN)?.is_recurring).toBe(false);
  });

  it('keeps the language sent with a date', () => {
    expect(parseDue({ date: '2026-12-01', lang: 'de' }, BERLIN)?.lang).toBe('de');
  });
});

describe('parseDue — invalid input', () => {
  it.each([
    [{ string: 'blah' }, 'due'],
    [{ string: 'every blah' }, 'due'],
    [{ string: 'every 12 hours' }, 'due'],
    [{ string: 'every 15th, last friday' }, 'due'],
    [{ string: 'every monday until nov 20' }, 'due'],
    [{ string: 'feb 30' }, 'due'],
    [{ string: 'today at 25:00' }, 'due'],
    [{ string: 'tomorrow at 13pm' }, 'due'],
    [{ string: 'today', timezone: 'Mars/Olympus_Mons' }, 'due'],
    [{ date: '2026-13-01' }, 'due'],
    [{ date: '2026-02-30' }, 'due'],
    [{ date: '01/12/2026' }, 'due'],
    [{ date: '2026-12-01T25:00:00' }, 'due'],
    [{ datetime: 'tomorrow' }, 'due'],
    [{}, 'due'],
    [{ string: 42 as unknown as string }, 'due'],
    [{ date: 20261201 as unknown as string }, 'due'],
    [{ string: 'today', lang: 'cs' }, 'lang'],
    [{ date: '2026-12-01', lang: 'tr' }, 'lang'],
  ])('%o is INVALID_ARGUMENT_VALUE for %s', (input, argument) => {
    const err = thrownDomainError(() => parseDue(input, BERLIN));
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra['argument']).toBe(argument);
    expect(err.message).not.toBe('');
  });

  it('never reads the real clock', () => {
    const later = { now: new Date(NOW.getTime() + 86_400_000), timezone: 'Europe/Berlin' };
    expect(parseDue({ string: 'today' }, later)?.date).toBe('2026-11-19');
  });
});
