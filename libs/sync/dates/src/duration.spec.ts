import { thrownDomainError } from '../testing/due-test-helpers';
import { parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    [{ amount: 15, unit: 'minute' }, { amount: 15, unit: 'minute' }],
    [{ amount: 1, unit: 'day' }, { amount: 1, unit: 'day' }],
    [{ amount: 1440, unit: 'minute' }, { amount: 1440, unit: 'minute' }],
  ])('%o -> %o', (input, expected) => {
    expect(parseDuration(input)).toEqual(expected);
  });

  it('null clears the duration', () => {
    expect(parseDuration(null)).toBeNull();
  });

  it.each([
    [{ amount: 0, unit: 'minute' }, 'amount'],
    [{ amount: -5, unit: 'minute' }, 'amount'],
    [{ amount: 1.5, unit: 'day' }, 'amount'],
    [{ amount: '15' as unknown as number, unit: 'minute' }, 'amount'],
    [{ amount: 15, unit: 'minutes' }, 'unit'],
    [{ amount: 15, unit: 'hour' }, 'unit'],
    [{ amount: 15, unit: '' }, 'unit'],
  ])('%o is INVALID_ARGUMENT_VALUE (bad %s)', (input, field) => {
    const err = thrownDomainError(() => parseDuration(input));
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra['argument']).toBe('duration');
    expect(err.extra).toHaveProperty(field);
  });
});
