import { DomainError } from '@doable/shared-errors';
import { parseArgs } from '../../command-args';
import { changesCredentials, checkUrgentReminderDevice, isIanaTimezone, updateGoalsArgs, userSettingsArgs, userUpdateArgs } from './user-args';

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (err) {
    return err instanceof DomainError ? err.code : 'not a DomainError';
  }
}

describe('user command arguments', () => {
  it.each(['inbox', 'teaminbox', 'today', 'next7days', 'project?id=2200000001', 'label?name=Waiting on', 'filter?id=7', 'workspace_filter?id=9'])(
    'accepts the start page %s (sync-interface §4.3)',
    (page) => {
      expect(parseArgs(userUpdateArgs, { start_page: page })).toEqual({ start_page: page });
    },
  );

  it.each(['bogus', '', 'project?id=', 'project?id=abc', 'label?name=', 'Today', 'inbox?x=1'])('refuses the start page %j', (page) => {
    expect(codeOf(() => parseArgs(userUpdateArgs, { start_page: page }))).toBe('INVALID_ARGUMENT_VALUE');
  });

  it.each(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'Asia/Calcutta'])('accepts the IANA zone %s', (zone) => {
    expect(isIanaTimezone(zone)).toBe(true);
  });

  it.each(['Mars/Olympus_Mons', '+05:00', '', 'Europe/', 'utc offset'])('refuses %j as a time zone', (zone) => {
    expect(isIanaTimezone(zone)).toBe(false);
  });

  it('parses user_update preferences and refuses values out of range', () => {
    expect(parseArgs(userUpdateArgs, { start_day: 7, time_format: 1, beta: true, theme: 3, onboarding_role: 'x' })).toEqual({
      start_day: 7,
      time_format: 1,
      beta: true,
      theme: 3,
    });
    expect(codeOf(() => parseArgs(userUpdateArgs, { start_day: 8 }))).toBe('INVALID_ARGUMENT_VALUE');
    expect(codeOf(() => parseArgs(userUpdateArgs, { date_format: 2 }))).toBe('INVALID_ARGUMENT_VALUE');
    expect(codeOf(() => parseArgs(userUpdateArgs, { auto_reminder: -2 }))).toBe('INVALID_ARGUMENT_VALUE');
    expect(codeOf(() => parseArgs(userUpdateArgs, { timezone: 'Nowhere/Land' }))).toBe('INVALID_ARGUMENT_VALUE');
  });

  it.each<[Record<string, unknown>, boolean]>([
    [{}, false],
    [{ full_name: 'Ada' }, false],
    [{ email: 'ada@example.com' }, true],
    [{ password: 'a long enough one', current_password: 'secret123' }, true],
  ])('sends %j to auth-oauth as a credential change: %s', (args, expected) => {
    expect(changesCredentials(parseArgs(userUpdateArgs, args))).toBe(expected);
  });

  it.each<[unknown, string | undefined]>([
    [undefined, undefined],
    [null, undefined],
    [{}, undefined],
    ['phone', 'BAD_REQUEST'],
    [[], 'BAD_REQUEST'],
    [{ device_platform: 'android' }, 'BAD_REQUEST'],
    [{ device_id: 'pixel-7' }, 'BAD_REQUEST'],
    [{ device_platform: 'windows', device_id: '1' }, 'BAD_REQUEST'],
    [{ device_platform: 'ios', device_id: '' }, 'BAD_REQUEST'],
    [{ platform: 'ios', id: 'abc' }, 'BAD_REQUEST'],
    [{ device_platform: 'ios', device_id: 'abc' }, 'DEVICE_NOT_FOUND'],
    [{ device_platform: 'android', device_id: 'pixel-7' }, 'DEVICE_NOT_FOUND'],
  ])('judges the urgent reminder device %j as %s', (device, code) => {
    expect(codeOf(() => checkUrgentReminderDevice(device))).toBe(code);
  });

  it('parses goals and settings flags given as booleans or 0/1', () => {
    expect(parseArgs(updateGoalsArgs, { daily_goal: 0, ignore_days: [7, 6], vacation_mode: 1, karma_disabled: false })).toEqual({
      daily_goal: 0,
      ignore_days: [7, 6],
      vacation_mode: true,
      karma_disabled: false,
    });
    expect(codeOf(() => parseArgs(updateGoalsArgs, { ignore_days: [0] }))).toBe('INVALID_ARGUMENT_VALUE');
    expect(codeOf(() => parseArgs(updateGoalsArgs, { weekly_goal: -1 }))).toBe('INVALID_ARGUMENT_VALUE');
    expect(parseArgs(userSettingsArgs, { reminder_push: 0, completed_sound_mobile: true })).toEqual({ reminder_push: false, completed_sound_mobile: true });
    expect(codeOf(() => parseArgs(userSettingsArgs, { reminder_email: 'yes' }))).toBe('INVALID_ARGUMENT_VALUE');
  });
});
