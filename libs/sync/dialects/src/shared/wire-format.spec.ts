import { tzInfo, wireDate, wireTimestamp } from './wire-format';

const SUMMER = new Date('2024-07-15T12:00:00Z');
const WINTER = new Date('2024-01-15T12:00:00Z');

describe('wireTimestamp', () => {
  it.each([
    ['2024-03-05T07:08:09.123Z', '2024-03-05T07:08:09.123000Z'],
    ['2024-03-05T07:08:09.000Z', '2024-03-05T07:08:09.000000Z'],
    ['1999-12-31T23:59:59.999Z', '1999-12-31T23:59:59.999000Z'],
  ])('writes %s as %s', (iso, wire) => {
    expect(wireTimestamp(new Date(iso))).toBe(wire);
  });

  it('always has six fractional digits and a Z', () => {
    expect(wireTimestamp(new Date(Date.UTC(2025, 5, 1, 0, 0, 0, 7)))).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });
});

describe('wireDate', () => {
  it('writes the UTC calendar date', () => {
    expect(wireDate(new Date('2024-02-29T23:30:00-02:00'))).toBe('2024-03-01');
  });
});

describe('tzInfo', () => {
  it('keeps answering after more zone spellings than its formatter cache holds', () => {
    // Intl accepts any case of a zone name: 1,050 spellings of one zone pass the cache's bound of 1,000.
    const letters = [...'europeberlin'];
    const spellings = Array.from({ length: 1_050 }, (_, index) => {
      const cased = letters.map((char, at) => ((index >> at) & 1 ? char.toUpperCase() : char)).join('');
      return `${cased.slice(0, 6)}/${cased.slice(6)}`;
    });
    expect(new Set(spellings).size).toBe(1_050);
    for (const zone of spellings) expect(tzInfo(zone, WINTER).gmt_string).toBe('+01:00');
    expect(tzInfo('Europe/Berlin', SUMMER).gmt_string).toBe('+02:00');
  });

  it.each([SUMMER, WINTER])('describes UTC as +00:00 without DST (%s)', (at) => {
    expect(tzInfo('UTC', at)).toEqual({ timezone: 'UTC', hours: 0, minutes: 0, is_dst: 0, gmt_string: '+00:00' });
  });

  it.each([
    ['Europe/Berlin', SUMMER, { hours: 2, minutes: 0, is_dst: 1, gmt_string: '+02:00' }],
    ['Europe/Berlin', WINTER, { hours: 1, minutes: 0, is_dst: 0, gmt_string: '+01:00' }],
    ['America/New_York', SUMMER, { hours: -4, minutes: 0, is_dst: 1, gmt_string: '-04:00' }],
    ['America/New_York', WINTER, { hours: -5, minutes: 0, is_dst: 0, gmt_string: '-05:00' }],
    // Southern hemisphere: daylight saving time falls in January.
    ['Australia/Sydney', WINTER, { hours: 11, minutes: 0, is_dst: 1, gmt_string: '+11:00' }],
    ['Australia/Sydney', SUMMER, { hours: 10, minutes: 0, is_dst: 0, gmt_string: '+10:00' }],
    ['Asia/Kolkata', SUMMER, { hours: 5, minutes: 30, is_dst: 0, gmt_string: '+05:30' }],
    ['Asia/Kathmandu', WINTER, { hours: 5, minutes: 45, is_dst: 0, gmt_string: '+05:45' }],
  ])('describes %s at %s', (zone, at, expected) => {
    expect(tzInfo(zone, at)).toEqual({ timezone: zone, ...expected });
  });

  it.each([
    // Half-hour negative offsets: hours and minutes carry the same sign and add up to the offset.
    ['Pacific/Marquesas', SUMMER, -570, 0, '-09:30'],
    ['Pacific/Marquesas', WINTER, -570, 0, '-09:30'],
    ['America/St_Johns', WINTER, -210, 0, '-03:30'],
    ['America/St_Johns', SUMMER, -150, 1, '-02:30'],
  ])('describes %s at %s as %d minutes', (zone, at, offset, isDst, gmt) => {
    const info = tzInfo(zone, at);
    expect(info.timezone).toBe(zone);
    expect(info.gmt_string).toBe(gmt);
    expect(info.is_dst).toBe(isDst);
    expect(info.hours).toBe(Math.trunc(offset / 60));
    expect(info.hours * 60 + info.minutes).toBe(offset);
    expect(Number.isInteger(info.minutes)).toBe(true);
  });

  it.each(['Mars/Olympus_Mons', 'Not a zone', ''])('falls back to UTC for the unknown zone %j', (zone) => {
    expect(tzInfo(zone, SUMMER)).toEqual({ timezone: 'UTC', hours: 0, minutes: 0, is_dst: 0, gmt_string: '+00:00' });
  });

  it('uses the current instant when none is given', () => {
    expect(tzInfo('Asia/Kolkata')).toEqual({ timezone: 'Asia/Kolkata', hours: 5, minutes: 30, is_dst: 0, gmt_string: '+05:30' });
  });
});
