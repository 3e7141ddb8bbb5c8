/**
 * The collaboration notification settings (the Sync API's `notification_settings` resource,
 * written by `update_notification_setting`): per notification type, whether it is pushed and
 * whether it is mailed. Stored per user as the choices they made (`sync.users.notification_settings`,
 * `{type: {email?, push?}}`); every type not chosen has the defaults below.
 *
 * Defaults (neither spec states them): push on, email off. Todoist mails few collaboration
 * events unless asked, and a mail per comment in a busy shared project would be noise nobody
 * chose; the live notification (push) is what every client shows anyway.
 */

/**
 * The types a user can set: sync-interface §6's collaboration notifications (not plan or goal
 * news), and `daily_digest`, which no spec names: the morning mail of the tasks due today and
 * overdue (Todoist's "daily digest"), a mail only, so it has no push to turn on.
 */
export const NOTIFICATION_SETTING_TYPES = [
  'share_invitation_sent',
  'share_invitation_accepted',
  'share_invitation_rejected',
  'user_left_project',
  'user_removed_from_project',
  'item_assigned',
  'item_completed',
  'item_uncompleted',
  'note_added',
  'workspace_invitation_created',
  'workspace_invitation_accepted',
  'workspace_invitation_rejected',
  'project_archived',
  'removed_from_workspace',
  'workspace_deleted',
  'daily_digest',
] as const;
export type NotificationSettingType = (typeof NOTIFICATION_SETTING_TYPES)[number];

export const NOTIFICATION_SERVICES = ['email', 'push'] as const;
export type NotificationService = (typeof NOTIFICATION_SERVICES)[number];

const DEFAULTS: Readonly<Record<NotificationService, boolean>> = { email: false, push: true };

/** What is stored: only the choices made (a later change of a default reaches everyone else). */
export type StoredNotificationSettings = Readonly<Record<string, Partial<Record<NotificationService, boolean>>>>;

/** The settings as the Sync API shows them (`settings_notifications`): every type, both services. */
export type NotificationSettingsView = Record<NotificationSettingType, { notify_email: boolean; notify_push: boolean }>;

/** Types with no push: their `notify_push` reads false, and a client cannot turn it on. */
const EMAIL_ONLY: readonly NotificationSettingType[] = ['daily_digest'];

export function isEmailOnlySetting(type: NotificationSettingType): boolean {
  return EMAIL_ONLY.includes(type);
}

export function isNotificationSettingType(type: string): type is NotificationSettingType {
  return (NOTIFICATION_SETTING_TYPES as readonly string[]).includes(type);
}

/** Whether the user gets the type by the service. A type not settable (karma, plans) is never mailed. */
export function notifiedBy(stored: StoredNotificationSettings, type: string, service: NotificationService): boolean {
  if (!isNotificationSettingType(type)) return false;
  if (service === 'push' && isEmailOnlySetting(type)) return false;
  // An own property only: a stored key is one of the types, but the row is read as JSON.
  const chosen = Object.prototype.hasOwnProperty.call(stored, type) ? stored[type]?.[service] : undefined;
  return typeof chosen === 'boolean' ? chosen : DEFAULTS[service];
}

export function notificationSettingsView(stored: StoredNotificationSettings): NotificationSettingsView {
  return Object.fromEntries(
    NOTIFICATION_SETTING_TYPES.map((type) => [type, { notify_email: notifiedBy(stored, type, 'email'), notify_push: notifiedBy(stored, type, 'push') }]),
  ) as NotificationSettingsView;
}
