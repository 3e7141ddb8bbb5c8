import { DomainError } from '@doable/shared-errors';
import { familyOf, RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  let clock = 0;
  const limiter = () => new RateLimiter({ windowMs: 60_000, perFamily: { sync: 3, rest: 2 } }, () => clock);

  beforeEach(() => {
    clock = 1_000_000;
  });

  it('lets a user spend the budget, then answers RATE_LIMITED with the seconds left', () => {
    const rates = limiter();
    rates.take('1', 'rest');
    rates.take('1', 'rest');
    clock += 15_000;
    let refused: unknown;
    try {
      rates.take('1', 'rest');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', extra: { retry_after: 45, limit: 2, window_seconds: 60 } });
  });

  it('counts each user and each family on its own', () => {
    const rates = limiter();
    rates.take('1', 'rest');
    rates.take('1', 'rest');
    expect(() => rates.take('2', 'rest')).not.toThrow();
    expect(() => rates.take('1', 'sync')).not.toThrow();
  });

  it('starts a fresh budget when the window has passed', () => {
    const rates = limiter();
    rates.take('1', 'rest');
    rates.take('1', 'rest');
    clock += 60_000;
    expect(() => rates.take('1', 'rest')).not.toThrow();
  });

  it('never refuses a family whose limit is 0 (off)', () => {
    const rates = new RateLimiter({ windowMs: 60_000, perFamily: { sync: 0, rest: 1 } }, () => clock);
    for (let i = 0; i < 100; i++) rates.take('1', 'sync');
    expect(rates.size).toBe(0);
  });

  it('sorts dialects into families', () => {
    expect(familyOf('sync-v9')).toBe('sync');
    expect(familyOf('sync-api-v1')).toBe('sync');
    expect(familyOf('rest-v2')).toBe('rest');
    expect(familyOf('rest-api-v1')).toBe('rest');
  });
});
