import { parseDeadline } from './deadline';
import { thrownDomainError } from '../testing/due-test-helpers';

describe('parseDeadline', () => {
  it.each([
    [{ date: '2026-12-01' }, { date: '2026-12-01', lang: 'en' }],
    [{ date: '2028-02-29', lang: 'de' }, { date: '2028-02-29', lang: 'de' }],
  ])('%o -> %o', (input, expected) => {
    expect(parseDeadline(input)).toEqual(expected);
  });

  it('null clears the deadline', () => {
    expect(parseDeadline(null)).toBeNull();
  });

  it.each([
    [{ date: '2026-02-29' }, 'deadline'],
    [{ date: '2026-12-01T10:00:00' }, 'deadline'],
    [{ date: 'tomorrow' }, 'deadline'],
    [{ date: '' }, 'deadline'],
    [{ date: 20261201 as unknown as string }, 'deadline'],
    [{ date: '2026-12-01', lang: 'xx' }, 'lang'],
  ])('%o is INVALID_ARGUMENT_VALUE for %s', (input, argument) => {
    const err = thrownDomainError(() => parseDeadline(input));
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra['argument']).toBe(argument);
  });
});
