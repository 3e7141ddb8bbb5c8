import type { ArgsDraft, CommandArgs, NotificationSettings, SyncUser } from '../api/sync-types';

/** The zone the user object names: api/v1 writes it in `tz_info`, older generations as `timezone`. */
export function userTimeZone(user: SyncUser | null): string {
  return user?.tz_info?.timezone ?? user?.timezone ?? 'UTC';
}

/**
 * The zones offered: the browser's IANA list, with the current one added when the list lacks it
 * (Chromium's leaves out "UTC", the server's default), so the select can always show it.
 */
export function timeZoneChoices(current: string, supported: readonly string[]): string[] {
  return supported.includes(current) ? [...supported] : [...supported, current].sort();
}

/** The user object's weekday numbers (1 Monday … 7 Sunday), as start_day takes them. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** What the profile form holds; the formats only when the user object carries them. */
export interface ProfileForm {
  fullName: string;
  timeZone: string;
  startDay: number;
  timeFormat?: number;
  dateFormat?: number;
}

export function profileFormOf(user: SyncUser | null): ProfileForm {
  return {
    fullName: user?.full_name ?? '',
    timeZone: userTimeZone(user),
    startDay: user?.start_day ?? 1,
    ...(typeof user?.time_format === 'number' ? { timeFormat: user.time_format } : {}),
    ...(typeof user?.date_format === 'number' ? { dateFormat: user.date_format } : {}),
  };
}

/**
 * user_update's args for what the form changed (nothing sent for what it did not: a resend
 * after someone else's change elsewhere would otherwise undo it), or why it cannot be sent.
 * The limits are the server's own (sync-interface §4.2 user_update).
 */
export function profileUpdateArgs(user: SyncUser | null, form: ProfileForm, isZone: (zone: string) => boolean): { args: CommandArgs['user_update'] } | { error: string } {
  const current = profileFormOf(user);
  const args: ArgsDraft<'user_update'> = {};
  const name = form.fullName.trim();
  if (name.length === 0) return { error: 'Enter your name.' };
  if (name.length > 255) return { error: 'The name is too long (at most 255 characters).' };
  if (name !== current.fullName) args.full_name = name;
  if (form.timeZone !== current.timeZone) {
    if (!isZone(form.timeZone)) return { error: 'Choose a time zone from the list.' };
    args.timezone = form.timeZone;
  }
  if (!Number.isInteger(form.startDay) || form.startDay < 1 || form.startDay > 7) return { error: 'Choose the first day of the week.' };
  if (form.startDay !== current.startDay) args.start_day = form.startDay;
  for (const [key, value, was] of [
    ['time_format', form.timeFormat, current.timeFormat],
    ['date_format', form.dateFormat, current.dateFormat],
  ] as const) {
    if (value === undefined || value === was) continue;
    if (value !== 0 && value !== 1) return { error: 'Choose a format from the list.' };
    args[key] = value;
  }
  return { args };
}

/** The notification types the server knows, named as a person would say them; `daily_digest` is shown on its own. */
export const NOTIFICATION_LABELS: Readonly<Record<string, string>> = {
  share_invitation_sent: 'I am invited to a project',
  share_invitation_accepted: 'My project invitation is accepted',
  share_invitation_rejected: 'My project invitation is declined',
  user_left_project: 'Someone leaves a shared project',
  user_removed_from_project: 'Someone is removed from a shared project',
  item_assigned: 'A task is assigned to me',
  item_completed: 'A shared task is completed',
  item_uncompleted: 'A shared task is reopened',
  note_added: 'A comment is added',
  workspace_invitation_created: 'I am invited to a workspace',
  workspace_invitation_accepted: 'My workspace invitation is accepted',
  workspace_invitation_rejected: 'My workspace invitation is declined',
  project_archived: 'A shared project is archived',
  removed_from_workspace: 'I am removed from a workspace',
  workspace_deleted: 'A workspace is deleted',
  daily_digest: 'Daily digest',
};

export const DAILY_DIGEST = 'daily_digest';

export type NotificationService = 'email' | 'push';

/** Types the server only mails: a push choice for them is refused, so no push box is shown. */
export const EMAIL_ONLY: ReadonlySet<string> = new Set([DAILY_DIGEST]);

/** The key of one choice being saved. */
export const choiceKey = (type: string, service: NotificationService) => `${type}:${service}`;

/** One row of the settings table: a type, its label and its two channels as shown. */
export interface NotificationRow {
  type: string;
  label: string;
  email: boolean;
  /** Null for a type that is mailed only. */
  push: boolean | null;
}

/**
 * The settings as the person sees them: the server's, with the choices still being saved on top
 * (so a box ticks at once; a refused choice drops back to the server's). Types in the server's
 * order, an unknown one named by its key.
 */
export function notificationRows(settings: NotificationSettings | null, saving: ReadonlyMap<string, boolean>): NotificationRow[] {
  return Object.entries(settings ?? {}).map(([type, { notify_email, notify_push }]) => ({
    type,
    label: NOTIFICATION_LABELS[type] ?? type.replace(/_/g, ' '),
    email: saving.get(choiceKey(type, 'email')) ?? notify_email,
    push: EMAIL_ONLY.has(type) ? null : (saving.get(choiceKey(type, 'push')) ?? notify_push),
  }));
}

/** The body of `PUT /api/v1/notification_setting` for one channel of one type turned on or off. */
export function notificationSettingBody(type: string, service: NotificationService, on: boolean): { notification_type: string; service: NotificationService; dont_notify: boolean } {
  return { notification_type: type, service, dont_notify: !on };
}
