import type { StoredNotificationSettings } from '@doable/contracts-sync';
/** The sync service's copy of a user: profile and preferences (credentials live in auth-oauth). */
export interface UserProfile {
  id: string;
  email: string;
  full_name: string;
  timezone: string;
  lang: string;
  inbox_project_id: string;
  start_page: string;
  start_day: number;
  next_week: number;
  weekend_start_day: number;
  time_format: number;
  date_format: number;
  sort_order: number;
  auto_reminder: number;
  daily_goal: number;
  weekly_goal: number;
  days_off: number[];
  theme_id: string;
  /** Goals: vacation mode pauses streaks; karma_disabled hides karma (ignore_days is days_off). */
  vacation_mode: boolean;
  karma_disabled: boolean;
  /** Karma (stats/karma.ts): the points, the direction and size of their last change. */
  karma: number;
  karma_trend: 'up' | 'down' | 'none';
  karma_last_change: number;
  beta: number;
  reminder_push: boolean;
  reminder_desktop: boolean;
  reminder_email: boolean;
  completed_sound_desktop: boolean;
  completed_sound_mobile: boolean;
  reset_recurring_subtasks: boolean;
  /** The collaboration notification settings chosen (notification-settings.ts); `{}`: the defaults. */
  notification_settings: StoredNotificationSettings;
  has_password: boolean;
  joined_at: Date;
  version: string;
  /** When the user_settings resource last changed (a change also moves `version`). */
  settings_version: string;
  high_water: string;
  /** How many live-notification deliveries the user has had (see the notification-mark migration). */
  notification_mark: string;
  /** The avatar's image id (uploads makes and serves its sizes); null: none set. */
  image_id: string | null;
}

/** The columns user_update and update_goals may write (`email` only after auth-oauth changed it). */
export type UserPreferenceColumn =
  | 'email'
  | 'full_name' | 'timezone' | 'start_page' | 'start_day' | 'next_week' | 'weekend_start_day' | 'time_format' | 'date_format'
  | 'sort_order' | 'auto_reminder' | 'theme_id' | 'beta' | 'daily_goal' | 'weekly_goal' | 'days_off' | 'vacation_mode' | 'karma_disabled'
  | 'has_password';

/** The columns behind the user_settings resource. */
export type UserSettingColumn =
  | 'reminder_push' | 'reminder_desktop' | 'reminder_email' | 'completed_sound_desktop' | 'completed_sound_mobile' | 'reset_recurring_subtasks';

export const USER_COLUMNS = `id::text, email, full_name, timezone, lang, inbox_project_id::text, start_page, start_day, next_week,
  weekend_start_day, time_format, date_format, sort_order, auto_reminder, daily_goal, weekly_goal, days_off, theme_id, vacation_mode,
  karma_disabled, beta, reminder_push, reminder_desktop, reminder_email, completed_sound_desktop, completed_sound_mobile,
  reset_recurring_subtasks, notification_settings, has_password, joined_at, version::text, settings_version::text, high_water::text, notification_mark::text, karma, karma_trend, karma_last_change, image_id`;
