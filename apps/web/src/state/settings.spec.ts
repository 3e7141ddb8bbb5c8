import type { SyncUser } from '../api/sync-types';
import { choiceKey, notificationRows, notificationSettingBody, profileFormOf, profileUpdateArgs, timeZoneChoices, userTimeZone } from './settings';

const user: SyncUser = { id: 'u1', full_name: 'Ana', tz_info: { timezone: 'UTC' }, start_day: 1, time_format: 0, date_format: 0 };
const zones = new Set(['UTC', 'Europe/Berlin', 'America/Sao_Paulo']);
const isZone = (zone: string) => zones.has(zone);

describe('settings', () => {
  it('reads the zone from tz_info (api/v1), else the older timezone, else UTC', () => {
    expect(userTimeZone(user)).toBe('UTC');
    expect(userTimeZone({ id: 'u2', timezone: 'Asia/Tokyo' })).toBe('Asia/Tokyo');
    expect(userTimeZone(null)).toBe('UTC');
  });

  it('offers the browser’s zones, with the current one added when the list lacks it', () => {
    expect(timeZoneChoices('Europe/Berlin', ['Africa/Abidjan', 'Europe/Berlin'])).toEqual(['Africa/Abidjan', 'Europe/Berlin']);
    expect(timeZoneChoices('UTC', ['Africa/Abidjan', 'Zulu/Nowhere'])).toEqual(['Africa/Abidjan', 'UTC', 'Zulu/Nowhere']);
  });

  it('fills the form from the user, with the formats only when the user object carries them', () => {
    expect(profileFormOf(user)).toEqual({ fullName: 'Ana', timeZone: 'UTC', startDay: 1, timeFormat: 0, dateFormat: 0 });
    expect(profileFormOf({ id: 'u2', full_name: 'Ben' })).toEqual({ fullName: 'Ben', timeZone: 'UTC', startDay: 1 });
  });

  it('sends in user_update only what changed, the name trimmed', () => {
    const form = profileFormOf(user);
    expect(profileUpdateArgs(user, form, isZone)).toEqual({ args: {} });
    expect(profileUpdateArgs(user, { ...form, fullName: ' Ana Lima ', timeZone: 'Europe/Berlin' }, isZone)).toEqual({ args: { full_name: 'Ana Lima', timezone: 'Europe/Berlin' } });
    expect(profileUpdateArgs(user, { ...form, startDay: 7, timeFormat: 1, dateFormat: 1 }, isZone)).toEqual({ args: { start_day: 7, time_format: 1, date_format: 1 } });
  });

  it('refuses what the server would: an empty or too long name, an unknown zone, a weekday or format out of range', () => {
    const form = profileFormOf(user);
    for (const bad of [{ fullName: '  ' }, { fullName: 'x'.repeat(256) }, { timeZone: 'Mars/Olympus' }, { startDay: 0 }, { startDay: 8 }, { timeFormat: 2 }, { dateFormat: -1 }]) {
      expect(profileUpdateArgs(user, { ...form, ...bad }, isZone)).toHaveProperty('error');
    }
  });

  it('shows the server’s notification settings with the choices being saved on top; the digest has no push', () => {
    const settings = { note_added: { notify_email: false, notify_push: true }, daily_digest: { notify_email: false, notify_push: false }, future_kind: { notify_email: true, notify_push: false } };
    const saving = new Map([
      [choiceKey('note_added', 'email'), true],
      [choiceKey('daily_digest', 'email'), true],
    ]);
    expect(notificationRows(settings, saving)).toEqual([
      { type: 'note_added', label: 'A comment is added', email: true, push: true },
      { type: 'daily_digest', label: 'Daily digest', email: true, push: null },
      { type: 'future_kind', label: 'future kind', email: true, push: false },
    ]);
    expect(notificationRows(null, saving)).toEqual([]);
  });

  it('writes the REST body of one choice: dont_notify is the opposite of on', () => {
    expect(notificationSettingBody('daily_digest', 'email', true)).toEqual({ notification_type: 'daily_digest', service: 'email', dont_notify: false });
    expect(notificationSettingBody('item_assigned', 'push', false)).toEqual({ notification_type: 'item_assigned', service: 'push', dont_notify: true });
  });
});
