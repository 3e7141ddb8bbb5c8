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
  has_password: boolean;
  joined_at: Date;
  version: string;
  high_water: string;
}

export const USER_COLUMNS = `id::text, email, full_name, timezone, lang, inbox_project_id::text, start_page, start_day, next_week,
  weekend_start_day, time_format, date_format, sort_order, auto_reminder, daily_goal, weekly_goal, days_off, theme_id, has_password,
  joined_at, version::text, high_water::text`;
