import { DateTime } from 'luxon';
import { dayNumber, isoDateOf, isoWeekdayOf } from './calendar-days';

// The stats stepped through days with zoned Luxon DateTimes; day numbers must name the same dates and weekdays.
const ZONES = ['UTC', 'Europe/Berlin', 'America/Santiago', 'America/Sao_Paulo', 'Pacific/Apia', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Havana'];
const INSTANTS = ['2024-03-10T07:30:00Z', '2024-10-27T00:59:59Z', '2026-11-27T23:59:00Z', '2000-02-28T12:00:00Z', '2016-02-29T12:00:00Z'];

describe('calendar days', () => {
  it('steps through a year of days and weeks as zoned Luxon does', () => {
    for (const zone of ZONES) {
      for (const instant of INSTANTS) {
        const today = DateTime.fromISO(instant).setZone(zone).startOf('day');
        const first = today.minus({ days: 365 });
        const firstDay = dayNumber(first.toISODate()!);
        expect(dayNumber(today.toISODate()!) - firstDay).toBe(365);
        for (let index = 0; index < 366; index++) {
          const zoned = first.plus({ days: index });
          expect([isoDateOf(firstDay + index), isoWeekdayOf(firstDay + index)]).toEqual([zoned.toISODate(), zoned.weekday]);
        }
        for (let startDay = 1; startDay <= 7; startDay++) {
          const zonedStart = first.minus({ days: (first.weekday - startDay + 7) % 7 }).plus({ weeks: 3 });
          const start = firstDay - ((isoWeekdayOf(firstDay) - startDay + 7) % 7) + 21;
          expect(isoDateOf(start)).toBe(zonedStart.toISODate());
        }
      }
    }
  });

  it('lists a day a zone skipped once, where zoned Luxon listed the next day twice', () => {
    // Samoa went from 2011-12-29 to 2011-12-31: Luxon's plus({days}) lands on the 31st from both the 29th and the 30th.
    const first = DateTime.fromISO('2011-12-28', { zone: 'Pacific/Apia' });
    expect([0, 1, 2, 3].map((index) => first.plus({ days: index }).toISODate())).toEqual(['2011-12-28', '2011-12-29', '2011-12-31', '2011-12-31']);
    const firstDay = dayNumber('2011-12-28');
    expect([0, 1, 2, 3].map((index) => isoDateOf(firstDay + index))).toEqual(['2011-12-28', '2011-12-29', '2011-12-30', '2011-12-31']);
  });

  it('reads a date before 1970', () => {
    expect(isoDateOf(dayNumber('1969-12-28'))).toBe('1969-12-28');
    expect(isoWeekdayOf(dayNumber('1969-12-28'))).toBe(7);
  });
});
