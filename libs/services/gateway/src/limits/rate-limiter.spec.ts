import { DomainError } from '@doable/shared-errors';
import { addressKey, familyOf, RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  let clock = 0;
  const limiter = () => new RateLimiter({ windowMs: 60_000, perFamily: { sync: 3, rest: 2, auth: 0 } }, () => clock);

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
    const rates = new RateLimiter({ windowMs: 60_000, perFamily: { sync: 0, rest: 1, auth: 0 } }, () => clock);
    for (let i = 0; i < 100; i++) rates.take('1', 'sync');
    expect(rates.size).toBe(0);
  });

  it('sorts dialects into families', () => {
    expect(familyOf('sync-v9')).toBe('sync');
    expect(familyOf('sync-api-v1')).toBe('sync');
    expect(familyOf('rest-v2')).toBe('rest');
    expect(familyOf('rest-api-v1')).toBe('rest');
  });

  describe('auth routes, per client address', () => {
    const addressLimiter = () =>
      new RateLimiter({ windowMs: 900_000, perFamily: { sync: 0, rest: 0, auth: 2 }, windowMsPerFamily: { auth: 60_000 } }, () => clock);

    it('refuses the third attempt from one address in its own (shorter) window, with Retry-After', () => {
      const rates = addressLimiter();
      rates.takeForAddress('203.0.113.7');
      rates.takeForAddress('::ffff:203.0.113.7');
      clock += 10_000;
      expect(() => rates.takeForAddress('203.0.113.7')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', extra: { retry_after: 50, limit: 2, window_seconds: 60 } }));
      expect(() => rates.takeForAddress('203.0.113.8')).not.toThrow();
      clock += 50_000;
      expect(() => rates.takeForAddress('203.0.113.7')).not.toThrow();
    });

    it('counts one IPv6 /64 as one client', () => {
      const rates = addressLimiter();
      rates.takeForAddress('2001:db8:1:2::1');
      rates.takeForAddress('2001:db8:1:2:ffff:0:0:9');
      expect(() => rates.takeForAddress('2001:0db8:0001:0002::abcd')).toThrow(DomainError);
      expect(() => rates.takeForAddress('2001:db8:1:3::1')).not.toThrow();
    });

    it('is off at 0, and keeps user budgets apart from address budgets', () => {
      const off = new RateLimiter({ windowMs: 60_000, perFamily: { sync: 1, rest: 1, auth: 0 } }, () => clock);
      for (let i = 0; i < 50; i++) off.takeForAddress('198.51.100.1');
      expect(off.size).toBe(0);
      off.take('198.51.100.1', 'rest');
      expect(() => off.take('198.51.100.1', 'sync')).not.toThrow();
    });

    it.each([
      ['192.0.2.1', '192.0.2.1'],
      ['::ffff:192.0.2.1', '192.0.2.1'],
      ['::1', '0:0:0:0::/64'],
      ['2001:db8::', '2001:db8:0:0::/64'],
      ['2001:DB8:0:0:1::1', '2001:db8:0:0::/64'],
      [undefined, 'unknown'],
    ])('keys %s as %s', (address, key) => {
      expect(addressKey(address)).toBe(key);
    });
  });
});

describe('RateLimiter: a generation budget on top of the Sync API family', () => {
  let clock = 0;
  const limiter = (sync = 5) =>
    new RateLimiter({ windowMs: 900_000, perFamily: { sync, rest: 2, auth: 0 }, perGeneration: { 'sync-v7': { limit: 2, windowMs: 60_000 } } }, () => clock);

  beforeEach(() => {
    clock = 1_000_000;
  });

  it("refuses v7 once its own per-minute budget is spent, with its limit, window and Retry-After, while other generations go on", () => {
    const rates = limiter();
    rates.takeForUser('1', 'sync-v7');
    rates.takeForUser('1', 'sync-v7');
    clock += 20_000;
    expect(() => rates.takeForUser('1', 'sync-v7')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', extra: { retry_after: 40, limit: 2, window_seconds: 60 } }));
    expect(() => rates.takeForUser('1', 'sync-api-v1')).not.toThrow();
    expect(() => rates.takeForUser('2', 'sync-v7')).not.toThrow();
    clock += 40_000;
    expect(() => rates.takeForUser('1', 'sync-v7')).not.toThrow();
  });

  it('counts a generation on the shared family budget too, and a refused request on neither', () => {
    const rates = limiter(3);
    rates.takeForUser('1', 'sync-v7');
    rates.takeForUser('1', 'sync-v7');
    // v7's own budget refuses: the family's count stays at 2, so api/v1 may send one more.
    expect(() => rates.takeForUser('1', 'sync-v7')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    rates.takeForUser('1', 'sync-api-v1');
    expect(() => rates.takeForUser('1', 'sync-v9')).toThrow(expect.objectContaining({ extra: expect.objectContaining({ limit: 3, window_seconds: 900 }) }));
    // Both spent: the answer names the budget that frees up last (the family's 15 minutes).
    expect(() => rates.takeForUser('1', 'sync-v7')).toThrow(expect.objectContaining({ extra: { retry_after: 900, limit: 3, window_seconds: 900 } }));
    clock += 60_000;
    // v7's minute has passed but the family's 15 minutes have not.
    expect(() => rates.takeForUser('1', 'sync-v7')).toThrow(expect.objectContaining({ extra: expect.objectContaining({ limit: 3 }) }));
  });

  it('applies no generation budget to REST, and only the family budget to generations without one', () => {
    const rates = limiter(100);
    for (let i = 0; i < 50; i++) rates.takeForUser('1', 'sync-v8');
    rates.takeForUser('1', 'rest-v2');
    rates.takeForUser('1', 'rest-v2');
    expect(() => rates.takeForUser('1', 'rest-v2')).toThrow(expect.objectContaining({ extra: expect.objectContaining({ limit: 2 }) }));
  });
});
