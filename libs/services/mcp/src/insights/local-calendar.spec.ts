import { clockOf, dayFromToday, isPast, localDay } from './local-calendar';

describe('the user\'s calendar', () => {
  // 2026-03-10 23:30 UTC is already the 11th in Tokyo and still the 10th in New York.
  const now = new Date('2026-03-10T23:30:00Z');

  it('reads days in the user\'s time zone, and an unknown zone as UTC', () => {
    expect(dayFromToday(clockOf(now, 'Asia/Tokyo'), 0)).toBe('2026-03-11');
    expect(dayFromToday(clockOf(now, 'America/New_York'), -1)).toBe('2026-03-09');
    expect(clockOf(now, 'Mars/Olympus').timezone).toBe('UTC');
    expect(clockOf(now, null).timezone).toBe('UTC');
    expect(localDay('2026-03-10T20:00:00Z', clockOf(now, 'Asia/Tokyo'))).toBe('2026-03-11');
    expect(localDay('2026-03-10T20:00:00.000000Z', clockOf(now, 'UTC'))).toBe('2026-03-10');
  });

  it('says a date-only due is past from the next day on, and a timed one once its time has passed', () => {
    const utc = clockOf(now, 'UTC');
    expect(isPast('2026-03-10', utc)).toBe(false);
    expect(isPast('2026-03-09', utc)).toBe(true);
    expect(isPast('2026-03-10', clockOf(now, 'Asia/Tokyo'))).toBe(true);
    expect(isPast('2026-03-10T23:00:00Z', utc)).toBe(true);
    expect(isPast('2026-03-10T23:59:00Z', utc)).toBe(false);
    // A floating time is the user's: 19:00 in New York is 23:00 UTC (EDT), passed; 20:00 is not.
    expect(isPast('2026-03-10T19:00:00', clockOf(now, 'America/New_York'))).toBe(true);
    expect(isPast('2026-03-10T20:00:00', clockOf(now, 'America/New_York'))).toBe(false);
  });
});
