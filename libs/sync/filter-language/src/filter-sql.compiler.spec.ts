import { DomainError } from '@doable/shared-errors';
import type { FilterContext } from './filter-context';
import { parseFilterQuery } from './filter.parser';
import { compileFilter, likePattern } from './filter-sql.compiler';

/** Wednesday 18 November 2026, 23:30 in Berlin (already the 18th there, still the 18th in UTC too). */
const CTX: FilterContext = { userId: '42', timezone: 'Europe/Berlin', now: new Date('2026-11-18T22:30:00Z'), lang: 'en' };

function compile(query: string, ctx: FilterContext = CTX) {
  return compileFilter(parseFilterQuery(query)[0].expression, ctx);
}

function compileError(query: string, ctx: FilterContext = CTX): DomainError {
  try {
    compile(query, ctx);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error(`expected "${query}" to be rejected`);
}

describe('likePattern', () => {
  it.each([
    [['Work'], 'Work'],
    [['Work', ''], 'Work%'],
    [['', 'ork', ''], '%ork%'],
    [['50%_off\\'], '50\\%\\_off\\\\'],
  ])('%j -> %s', (segments, expected) => {
    expect(likePattern({ segments })).toBe(expected);
  });
});

describe('compileFilter', () => {
  it('always binds the user id as $1 and nothing else into the SQL text', () => {
    const { where, params } = compile("#Robert'\\); DROP TABLE sync.items; --");
    expect(params).toEqual(['42', "Robert'); DROP TABLE sync.items; --"]);
    expect(where).toBe('EXISTS (SELECT 1 FROM sync.projects fp WHERE fp.id = item.project_id AND fp.name ILIKE $2)');
  });

  it('reads a stored due date only through its checked column, so a year-0000 row cannot fail the cast', () => {
    // sync.items.due_date_text is the date where it has a stored shape, else NULL (migration DueDateText).
    const { where } = compile('today | overdue');
    expect(where).toContain('item.due_date_text');
    expect(where).not.toMatch(/item\.due->>'date'/);
  });

  it('matches no pattern per task: the column was checked when the task was written', () => {
    const { where } = compile('today | overdue');
    expect(where).not.toContain('~');
    expect(where).not.toContain('SELECT');
  });

  it('refuses a filter date outside the calendar as a bad filter', () => {
    const err = compileError('due before: 0000-01-01');
    expect({ code: err.code, argument: err.extra['argument'] }).toEqual({ code: 'INVALID_ARGUMENT_VALUE', argument: 'filter' });
  });

  it('maps p1 to the API priority 4 and p4 to 1', () => {
    expect(compile('p1').where).toBe('item.priority = 4');
    expect(compile('p4').where).toBe('item.priority = 1');
  });

  it('reads "today" on the user wall clock and reuses one placeholder per value', () => {
    const { where, params } = compile('today | !today');
    expect(params).toEqual(['42', 'Europe/Berlin', '2026-11-18']);
    expect(where.match(/\$3::date/g)).toHaveLength(2);
  });

  it('moves "today" with the timezone', () => {
    expect(compile('today', { ...CTX, timezone: 'Pacific/Kiritimati' }).params).toContain('2026-11-19');
    expect(compile('today', { ...CTX, timezone: 'America/Los_Angeles' }).params).toContain('2026-11-18');
  });

  it('falls back to UTC for an unknown zone rather than failing the read', () => {
    expect(compile('today', { ...CTX, timezone: 'Mars/Olympus' }).params).toEqual(['42', 'UTC', '2026-11-18']);
  });

  it('next 7 days is today and the six days after it', () => {
    expect(compile('next 7 days').params).toEqual(['42', 'Europe/Berlin', '2026-11-18', '2026-11-24']);
    expect(compile('-3 days').params).toEqual(['42', 'Europe/Berlin', '2026-11-15', '2026-11-17']);
  });

  it('reads date phrases with the due-date grammar, in the given language', () => {
    expect(compile('due before: next monday').params).toContain('2026-11-30');
    expect(compile('due: Dec 1').params).toContain('2026-12-01');
    expect(compile('due after: 3 days').params).toContain('2026-11-21');
    expect(compile('heute', { ...CTX, lang: 'de' }).params).toContain('2026-11-18');
  });

  it('compares a phrase with a time as an instant in the user zone', () => {
    const { params } = compile('due before: tomorrow at 9am');
    expect(params).toContain('2026-11-19T08:00:00.000Z');
  });

  it('created bounds are the instants the user day starts', () => {
    expect(compile('created: Nov 17').params).toEqual(['42', '2026-11-16T23:00:00.000Z', '2026-11-17T23:00:00.000Z']);
    expect(compile('created before: Nov 17').params).toEqual(['42', '2026-11-16T23:00:00.000Z']);
    expect(compile('created after: Nov 17 2027').params).toEqual(['42', '2027-11-17T23:00:00.000Z']);
    expect(compile('created after: tomorrow').params).toEqual(['42', '2026-11-19T23:00:00.000Z']);
  });

  it('reads "due: no date" and other no-date words as no date', () => {
    expect(compile('due: no date').where).toBe('item.due IS NULL');
    expect(compile('none').where).toBe('item.due IS NULL');
  });

  it.each([
    ['tday', /"tday" is neither a known filter nor a date/],
    ['due before: every monday', /recurring/],
    ['due before: no date', /needs a date/],
    ['created after: whenever', /neither a known filter nor a date/],
    ['today & (p1 | blah)', /"blah"/],
  ])('%s is a filter error', (query, message) => {
    const error = compileError(query);
    expect(error.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(error.extra['argument']).toBe('filter');
    expect(error.message).toMatch(message);
  });

  it('an unsupported language is a lang error', () => {
    expect(compileError('Jan 3', { ...CTX, lang: 'xx' }).extra['argument']).toBe('lang');
  });
});
