import fc from 'fast-check';
import { DateTime } from 'luxon';
import { wireTimestamp } from '../shared/wire-format';
import { legacyTimestamp, legacyTimestampOfText, parseLegacyTimestamp, v8Timestamp } from './legacy-timestamps';

const instant = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => new Date(Math.floor(date.getTime() / 1000) * 1000));

describe('legacy timestamps', () => {
  it('writes v8 without a fraction and v7 in the docs\' form', () => {
    const at = new Date('2014-09-26T08:25:05.123Z');
    expect(v8Timestamp(at)).toBe('2014-09-26T08:25:05Z');
    expect(legacyTimestamp(at)).toBe('Fri 26 Sep 2014 08:25:05 +0000');
  });

  it('writes a timestamp held as text as it writes the instant, wire text or any other', () => {
    const anyMs = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(
      fc.property(anyMs, fc.integer({ min: 0, max: 999 }), (at, micros) => {
        // PostgreSQL's wire text carries microseconds; the seconds are what v7 writes.
        const wire = `${wireTimestamp(at).slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
        expect(legacyTimestampOfText(wire)).toBe(legacyTimestamp(at));
        expect(legacyTimestampOfText(at.toISOString())).toBe(legacyTimestamp(at));
      }),
      { numRuns: 500 },
    );
    expect(legacyTimestampOfText('2014-09-26T08:25:05.123456Z')).toBe('Fri 26 Sep 2014 08:25:05 +0000');
  });

  it("writes what Luxon's English format writes, for any instant (property)", () => {
    fc.assert(
      fc.property(instant, (at) => {
        expect(legacyTimestamp(at)).toBe(DateTime.fromJSDate(at, { zone: 'utc' }).setLocale('en-US').toFormat("ccc dd LLL yyyy HH:mm:ss '+0000'"));
      }),
    );
  });

  it('reads back what it writes, in both forms (property)', () => {
    fc.assert(
      fc.property(instant, (at) => {
        expect(parseLegacyTimestamp(legacyTimestamp(at))?.getTime()).toBe(at.getTime());
        expect(parseLegacyTimestamp(v8Timestamp(at))?.getTime()).toBe(at.getTime());
      }),
    );
  });

  it('reads other offsets and the v7 minute form, and nothing else', () => {
    expect(parseLegacyTimestamp('Wed 08 Oct 2014 23:59:59 +0300')?.toISOString()).toBe('2014-10-08T20:59:59.000Z');
    expect(parseLegacyTimestamp('2015-05-30T23:59')?.toISOString()).toBe('2015-05-30T23:59:00.000Z');
    expect(parseLegacyTimestamp('tomorrow')).toBeUndefined();
    expect(parseLegacyTimestamp('2015-05-30')).toBeUndefined();
  });
});
