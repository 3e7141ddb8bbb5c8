import { restV2Due } from './rest-v2-due';

describe('the REST v2 due object', () => {
  it('a full-day due has a date and no datetime', () => {
    expect(restV2Due({ date: '2026-11-22', string: 'tomorrow', is_recurring: false, timezone: null, lang: 'en' })).toEqual({
      string: 'tomorrow',
      is_recurring: false,
      lang: 'en',
      date: '2026-11-22',
      datetime: null,
      timezone: null,
    });
  });

  it('a floating time keeps its wall-clock datetime', () => {
    expect(restV2Due({ date: '2026-11-22T09:00:00', string: 'tomorrow 9am', is_recurring: false, timezone: null, lang: 'en' })).toMatchObject({
      date: '2026-11-22',
      datetime: '2026-11-22T09:00:00',
      timezone: null,
    });
  });

  it("a time fixed to a zone answers the UTC instant and the zone's calendar day", () => {
    // 23:30 UTC is already the next day in Tokyo.
    expect(restV2Due({ date: '2026-11-22T23:30:00Z', string: 'every day', is_recurring: true, timezone: 'Asia/Tokyo', lang: 'en' })).toMatchObject({
      date: '2026-11-23',
      datetime: '2026-11-22T23:30:00Z',
      timezone: 'Asia/Tokyo',
      is_recurring: true,
    });
  });
});
