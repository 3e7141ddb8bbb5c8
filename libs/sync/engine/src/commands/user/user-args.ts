import { storedInteger } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { flag } from '../../command-args';

/** An IANA zone name ("Europe/Berlin", "UTC", "America/Argentina/Buenos_Aires") the runtime knows. */
export function isIanaTimezone(value: string): boolean {
  // Intl also accepts offsets ("+05:00"); the user object's tz_info needs a named zone.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const weekday = storedInteger.min(1).max(7);

/**
 * The start pages of sync-interface §4.3: a fixed view, or a project, label, filter or workspace
 * filter named by id (or name for a label). Anything else would leave clients on a page they
 * cannot open.
 */
const START_PAGE = /^(inbox|teaminbox|today|next7days|(project|filter|workspace_filter)\?id=[0-9]{1,19}|label\?name=[^\s].{0,254})$/;

export function isStartPage(value: string): boolean {
  return START_PAGE.test(value);
}
const zeroOrOne = z.union([z.literal(0), z.literal(1)]);

/**
 * user_update (public-api-facts §1.2 "User"). `theme` (v9, a number) and `theme_id` (v1, a
 * string) are one setting. Unknown keys, the `onboarding_*` ones among them, are accepted and
 * ignored: Doable has no onboarding flow to record them for.
 */
export const userUpdateArgs = z.object({
  full_name: z.string().trim().min(1).max(255).optional(),
  timezone: z.string().refine(isIanaTimezone, 'Not an IANA time zone').optional(),
  start_page: z.string().trim().refine(isStartPage, 'Not a start page (inbox, teaminbox, today, next7days, project?id=, label?name=, filter?id=, workspace_filter?id=)').optional(),
  start_day: weekday.optional(),
  next_week: weekday.optional(),
  weekend_start_day: weekday.optional(),
  time_format: zeroOrOne.optional(),
  date_format: zeroOrOne.optional(),
  sort_order: zeroOrOne.optional(),
  auto_reminder: storedInteger.min(-1).max(525_600).optional(),
  theme: z.union([storedInteger.min(0).max(1000), z.string().trim().min(1).max(50)]).optional(),
  theme_id: z.union([storedInteger.min(0).max(1000), z.string().trim().min(1).max(50)]).optional(),
  beta: flag.optional(),
  email: z.string().optional(),
  password: z.string().optional(),
  current_password: z.string().optional(),
  urgent_reminder_device: z.unknown().optional(),
});
export type UserUpdateArgs = z.infer<typeof userUpdateArgs>;

/** Whether user_update asks to change the email or the password (auth-oauth checks and does it). */
export function changesCredentials(args: UserUpdateArgs): boolean {
  return args.email !== undefined || args.password !== undefined;
}

const deviceShape = z.object({ device_platform: z.enum(['ios', 'android']), device_id: z.string().trim().min(1) });

/**
 * urgent_reminder_device (spec §4.3) names a registered push device: {device_platform: ios or
 * android, device_id}. An empty object clears the choice (null too, as a client may send it).
 * A platform or id missing or malformed is BAD_REQUEST. Doable keeps no device registry (it
 * sends no pushes), so a well-formed device is never registered: ERROR_DEVICE_NOT_FOUND.
 */
export function checkUrgentReminderDevice(value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return;
  if (!deviceShape.safeParse(value).success) {
    throw new DomainError('BAD_REQUEST', 'urgent_reminder_device needs a device_platform (ios or android) and a device_id', { argument: 'urgent_reminder_device' });
  }
  throw new DomainError('DEVICE_NOT_FOUND', undefined, { argument: 'urgent_reminder_device' });
}

/** update_goals (sync-interface §4.2). ignore_days are stored as the user's days_off. */
export const updateGoalsArgs = z.object({
  daily_goal: storedInteger.min(0).max(10_000).optional(),
  weekly_goal: storedInteger.min(0).max(70_000).optional(),
  ignore_days: z.array(weekday).max(7).optional(),
  vacation_mode: flag.optional(),
  karma_disabled: flag.optional(),
});

/** user_settings_update (sync-interface §4.2), and reset_recurring_subtasks from the newer SDK. */
export const userSettingsArgs = z.object({
  reminder_push: flag.optional(),
  reminder_desktop: flag.optional(),
  reminder_email: flag.optional(),
  completed_sound_desktop: flag.optional(),
  completed_sound_mobile: flag.optional(),
  reset_recurring_subtasks: flag.optional(),
});
