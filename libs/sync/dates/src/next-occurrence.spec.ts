import { BERLIN } from '../testing/due-test-helpers';
import { type Due } from './due.model';
import { nextOccurrence } from './next-occurrence';
import { parseDue } from './parse-due';

const due = (string: string, date: string, timezone: string | null = null, lang = 'en'): Due => ({ date, timezone, string, lang, is_recurring: true });
const completedAt = new Date('2026-11-18T10:00:00Z');
const done = { completedAt, timezone: 'Europe/Berlin' };

describe('nextOccurrence — from the due date', () => {
  it.each([
    ['every day', '2026-11-18', '2026-11-19'],
    ['daily', '2026-11-18', '2026-11-19'],
    ['every 3 days', '2026-11-18', '2026-11-21'],
    ['every monday', '2026-11-23', '2026-11-30'],
    ['every mon, fri', '2026-11-20', '2026-11-23'],
    ['every mon, fri', '2026-11-23', '2026-11-27'],
    ['every other week', '2026-11-18', '2026-12-02'],
    ['every other monday', '2026-11-23', '2026-12-07'],
    ['every weekday', '2026-11-20', '2026-11-23'],
    ['every weekend', '2026-11-21', '2026-11-28'],
    ['every 15th', '2026-12-15', '2027-01-15'],
    ['every last day', '2026-11-30', '2026-12-31'],
    ['every last day', '2027-01-31', '2027-02-28'],
    ['every month', '2026-11-18', '2026-12-18'],
    ['every 2 months', '2026-11-18', '2027-01-18'],
    ['every year', '2026-11-18', '2027-11-18'],
    ['every jan 27', '2027-01-27', '2028-01-27'],
    ['every 3rd friday', '2026-11-20', '2026-12-18'],
    ['every last workday', '2026-11-30', '2026-12-31'],
    ['every 15th workday', '2026-11-20', '2026-12-21'],
    ['every day at 9am', '2026-11-18T09:00:00', '2026-11-19T09:00:00'],
    // the due's own time wins over the string's: the user moved it
    ['every day at 9am', '2026-11-18T14:00:00', '2026-11-19T14:00:00'],
    ['every day', '2026-11-18T14:00:00', '2026-11-19T14:00:00'],
    // a rule time applies to a due stored without one
    ['every morning', '2026-11-18', '2026-11-19T09:00:00'],
    // overdue: `every` advances from the due date, not from today
    ['every day', '2026-11-10', '2026-11-11'],
    ['every day starting dec 1', '2026-12-01', '2026-12-02'],
  ])('%s due %s -> %s', (string, date, next) => {
    expect(nextOccurrence(due(string, date), done)).toEqual(due(string, next));
  });
});

describe('nextOccurrence — every! counts from completion', () => {
  it.each([
    ['every! 3 days', '2026-11-10', '2026-11-21'],
    ['every! day', '2026-11-01', '2026-11-19'],
    ['every! monday', '2026-11-09', '2026-11-23'],
    ['after 1 week', '2026-11-01', '2026-11-25'],
    ['ev! month', '2026-10-01', '2026-12-18'],
  ])('%s due %s, done on 2026-11-18 -> %s', (string, date, next) => {
    expect(nextOccurrence(due(string, date), done)).toEqual(due(string, next));
  });

  it('reads the completion day in the user zone', () => {
    // 23:30 UTC on the 18th is already the 19th in Berlin.
    const late = { completedAt: new Date('2026-11-18T23:30:00Z'), timezone: 'Europe/Berlin' };
    expect(nextOccurrence(due('every! day', '2026-11-10'), late)?.date).toBe('2026-11-20');
  });

  it('keeps a fixed time on the completion-based date', () => {
    const d = due('every! day at 9am', '2026-11-10T08:00:00Z', 'Europe/Berlin');
    expect(nextOccurrence(d, { completedAt: new Date('2026-11-18T20:00:00Z'), timezone: 'Europe/Berlin' })?.date).toBe('2026-11-19T08:00:00Z');
  });
});

describe('nextOccurrence — until ends the series', () => {
  it.each([
    ['every day until dec 31', '2026-12-30', '2026-12-31'],
    ['every day until dec 31', '2026-12-31', null],
    ['every monday ending dec 7', '2026-11-30', '2026-12-07'],
    ['every monday ending dec 7', '2026-12-07', null],
    ['every day until 2026-11-19', '2026-11-18T09:00:00', '2026-11-19T09:00:00'],
    ['every day until 2026-11-19', '2026-11-19T09:00:00', null],
  ])('%s due %s -> %s', (string, date, next) => {
    const result = nextOccurrence(due(string, date), done);
    expect(result?.date ?? null).toBe(next);
  });

  it('a series parsed today ends at its bound when walked to it', () => {
    let current = parseDue({ string: 'every day until nov 21' }, BERLIN);
    const dates: string[] = [];
    while (current) {
      dates.push(current.date);
      current = nextOccurrence(current, done);
    }
    expect(dates).toEqual(['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21']);
  });
});

describe('nextOccurrence — wall clock across DST', () => {
  // Europe/Berlin: CET (UTC+1) until 2026-03-29, CEST (UTC+2) until 2026-10-25.
  it.each([
    ['2026-03-23T08:00:00Z', '2026-03-30T07:00:00Z'],
    ['2026-03-30T07:00:00Z', '2026-04-06T07:00:00Z'],
    ['2026-10-19T07:00:00Z', '2026-10-26T08:00:00Z'],
    ['2026-10-26T08:00:00Z', '2026-11-02T08:00:00Z'],
  ])('weekly 09:00 Europe/Berlin: %s -> %s', (date, next) => {
    const d = due('every monday at 9am', date, 'Europe/Berlin');
    expect(nextOccurrence(d, done)).toEqual(due('every monday at 9am', next, 'Europe/Berlin'));
  });

  it.each([
    ['2026-03-23T09:00:00', '2026-03-30T09:00:00'],
    ['2026-10-19T09:00:00', '2026-10-26T09:00:00'],
  ])('a floating weekly 09:00 stays 09:00: %s -> %s', (date, next) => {
    expect(nextOccurrence(due('every monday at 9am', date), done)?.date).toBe(next);
  });

  it('a daily 09:00 in New York moves its instant when DST ends on 2026-11-01', () => {
    const d = due('every day at 9am', '2026-10-31T13:00:00Z', 'America/New_York');
    expect(nextOccurrence(d, done)?.date).toBe('2026-11-01T14:00:00Z');
  });

  it('the first occurrence parsed before the switch and walked across it keeps 09:00', () => {
    const march = { now: new Date('2026-03-20T10:00:00Z'), timezone: 'Europe/Berlin' };
    const first = parseDue({ string: 'every monday at 9am', timezone: 'Europe/Berlin' }, march);
    expect(first?.date).toBe('2026-03-23T08:00:00Z');
    expect(first && nextOccurrence(first, { completedAt: new Date('2026-03-23T09:00:00Z'), timezone: 'Europe/Berlin' })?.date).toBe('2026-03-30T07:00:00Z');
  });
});

describe('nextOccurrence — other languages and non-recurring dues', () => {
  it.each([
    ['jeden montag', 'de', '2026-11-23', '2026-11-30'],
    ['alle 3 tage', 'de', '2026-11-18', '2026-11-21'],
    ['毎週月曜日', 'ja', '2026-11-23', '2026-11-30'],
    ['每3天', 'zh', '2026-11-18', '2026-11-21'],
    ['3일마다', 'ko', '2026-11-18', '2026-11-21'],
    ['co poniedziałek', 'pl', '2026-11-23', '2026-11-30'],
    ['hver dag', 'da', '2026-11-18', '2026-11-19'],
  ])('%s (%s) due %s -> %s', (string, lang, date, next) => {
    expect(nextOccurrence(due(string, date, null, lang), done)).toEqual(due(string, next, null, lang));
  });

  it('a due that does not recur has no next occurrence', () => {
    expect(nextOccurrence({ date: '2026-11-18', timezone: null, string: 'today', lang: 'en', is_recurring: false }, done)).toBeNull();
  });
});
