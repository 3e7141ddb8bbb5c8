import { createHash } from 'node:crypto';
import type { UserProfile } from '@doable/sync-domain';
import { type ApiSyncUser, avatarUrls } from '@doable/contracts-sync';
import { defaultUserSettings } from './default-resources';
import { tzInfo, wireTimestamp } from './wire-format';

/**
 * The sync `user` object (v9 and api/v1 agree on it). Every key the official SDK requires is
 * present (client-schemas.md › SyncUserSchema); features a self-hosted server does not have
 * (trials, business accounts) carry their neutral values. Karma follows stats/karma.ts.
 * `avatarOrigin`: where the avatar URLs point (the caller's origin); without one, or without an
 * avatar, the optional `avatar_*` keys are left out (the SDK refuses them null).
 */
export function writeSyncUser(user: UserProfile, websocketUrl = '', avatarOrigin?: string): ApiSyncUser {
  return {
    id: user.id,
    email: user.email,
    full_name: user.full_name,
    activated_user: true,
    auto_reminder: user.auto_reminder,
    business_account_id: null,
    daily_goal: user.daily_goal,
    date_format: user.date_format,
    dateist_lang: null,
    days_off: user.days_off,
    feature_identifier: `${user.id}_${createHash('sha256').update(user.id).digest('hex').slice(0, 16)}`,
    features: {
      karma_disabled: user.karma_disabled,
      restriction: 3,
      karma_vacation: user.vacation_mode,
      dateist_lang: user.lang,
      beta: user.beta === 1 ? 1 : 0,
      has_push_reminders: false,
      dateist_inline_disabled: false,
    },
    has_magic_number: false,
    has_password: user.has_password,
    image_id: user.image_id ?? null,
    ...avatarUrls(avatarOrigin, user.image_id ?? null),
    inbox_project_id: user.inbox_project_id,
    is_celebrations_enabled: true,
    is_premium: false,
    joinable_workspace: null,
    joined_at: wireTimestamp(new Date(user.joined_at)),
    getting_started_guide_projects: null,
    karma: user.karma,
    karma_trend: user.karma_trend,
    lang: user.lang,
    mfa_enabled: false,
    next_week: user.next_week,
    premium_status: 'not_premium',
    premium_until: null,
    share_limit: 5,
    sort_order: user.sort_order,
    start_day: user.start_day,
    start_page: user.start_page,
    theme_id: user.theme_id,
    time_format: user.time_format,
    tz_info: tzInfo(user.timezone),
    unique_prefix: 1,
    verification_status: 'verified',
    websocket_url: websocketUrl,
    weekend_start_day: user.weekend_start_day,
    weekly_goal: user.weekly_goal,
  };
}

/**
 * The `user_settings` resource: the stored choices, and the keys the SDK also requires
 * (client-schemas.md › UserSettingsSchema) at their neutral values (defaultUserSettings).
 */
export function writeUserSettings(user: UserProfile): Record<string, unknown> {
  return {
    ...defaultUserSettings(),
    reminder_push: user.reminder_push,
    reminder_desktop: user.reminder_desktop,
    reminder_email: user.reminder_email,
    completed_sound_desktop: user.completed_sound_desktop,
    completed_sound_mobile: user.completed_sound_mobile,
    reset_recurring_subtasks: user.reset_recurring_subtasks,
  };
}
