import fc from 'fast-check';
import type { StoredDue } from '@doable/sync-domain';
import { dueArgFromLegacy, firstGenerationDueDate, legacyDueFields, legacyDueInstant } from './legacy-due';
import { legacyTimestamp } from './legacy-timestamps';

const due = (date: string, extra: Partial<StoredDue> = {}): StoredDue => ({ date, timezone: null, string: 'some day', lang: 'en', is_recurring: false, ...extra });

describe('legacyDueFields', () => {
  it('puts an all-day due at 23:59:59 in the user\'s zone, as the v5.3 docs\' Athens example', () => {
    expect(legacyDueFields(due('2014-10-08', { string: '8 Oct' }), 'Europe/Athens')).toEqual({
      date_string: '8 Oct',
      date_lang: 'en',
      due_date_utc: 'Wed 08 Oct 2014 20:59:59 +0000',
    });
  });

  it('reads a floating time in the user\'s zone and a fixed time as its instant', () => {
    expect(legacyDueFields(due('2014-09-26T10:00:00'), 'America/New_York').due_date_utc).toBe('Fri 26 Sep 2014 14:00:00 +0000');
    expect(legacyDueFields(due('2014-09-26T10:00:00Z', { timezone: 'Asia/Tokyo' }), 'America/New_York').due_date_utc).toBe('Fri 26 Sep 2014 10:00:00 +0000');
  });

  it('writes no due as an empty date_string and nulls; an unknown zone as UTC', () => {
    expect(legacyDueFields(null, 'UTC')).toEqual({ date_string: '', date_lang: null, due_date_utc: null });
    expect(legacyDueFields(due('2014-10-08'), 'Not/AZone').due_date_utc).toBe('Wed 08 Oct 2014 23:59:59 +0000');
    expect(firstGenerationDueDate(due('2014-10-08'), null)).toBe('Wed 08 Oct 2014 23:59:59 +0000');
  });

  it('remembers a date\'s instant per zone, never another zone\'s (property, asked twice in turn)', () => {
    const zones = fc.constantFrom('UTC', 'Europe/Athens', 'America/New_York', 'Asia/Kolkata', 'Not/AZone', null);
    const date = fc.oneof(fc.constantFrom('2014-10-08', '2014-10-08T10:00:00', '2026-03-29T02:30:00', 'not a date'), fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }).map((at) => at.toISOString().slice(0, 19)));
    fc.assert(
      fc.property(date, zones, zones, (text, first, second) => {
        for (const zone of [first, second, first, second]) {
          const instant = legacyDueInstant({ date: text }, zone);
          expect(legacyDueFields(due(text), zone).due_date_utc).toBe(instant ? legacyTimestamp(instant) : null);
        }
      }),
    );
  });
});

describe('dueArgFromLegacy', () => {
  it('takes date_string (with its language) over due_date_utc', () => {
    expect(dueArgFromLegacy({ date_string: 'tomorrow', date_lang: 'de', due_date_utc: 'x' }, 'UTC')).toEqual({ string: 'tomorrow', lang: 'de' });
    expect(dueArgFromLegacy({ date_string: 'tomorrow' }, 'UTC')).toEqual({ string: 'tomorrow' });
  });

  it('removes the due for an empty date_string or due_date_utc, and leaves it alone when neither is sent', () => {
    expect(dueArgFromLegacy({ date_string: '' }, 'UTC')).toBeNull();
    expect(dueArgFromLegacy({ date_string: null }, 'UTC')).toBeNull();
    expect(dueArgFromLegacy({ due_date_utc: null }, 'UTC')).toBeNull();
    expect(dueArgFromLegacy({}, 'UTC')).toBeUndefined();
  });

  it('reads 23:59 in the user\'s zone as a whole day and other instants as wall clocks', () => {
    expect(dueArgFromLegacy({ due_date_utc: 'Wed 08 Oct 2014 20:59:59 +0000' }, 'Europe/Athens')).toEqual({ date: '2014-10-08' });
    expect(dueArgFromLegacy({ due_date_utc: '2015-05-30T23:59' }, 'UTC')).toEqual({ date: '2015-05-30' });
    expect(dueArgFromLegacy({ due_date_utc: 'Fri 26 Sep 2014 14:00:00 +0000' }, 'America/New_York')).toEqual({ date: '2014-09-26T10:00:00' });
    expect(dueArgFromLegacy({ due_date_utc: 'soon' }, 'UTC')).toEqual({ date: 'soon' });
  });

  it('gives back the day of any all-day due it wrote (property)', () => {
    const zones = fc.constantFrom('UTC', 'Europe/Athens', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland', 'Pacific/Honolulu');
    const day = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, zones, (date, zone) => {
        const written = legacyDueFields(due(date), zone);
        expect(dueArgFromLegacy({ due_date_utc: written.due_date_utc }, zone)).toEqual({ date });
      }),
    );
  });
});
