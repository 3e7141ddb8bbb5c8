export * as NotificationsSubjects from './subjects';
export type { LiveNotification, LiveNotificationCommand, LiveNotificationCommandRequest, LiveNotificationCommandType, LiveNotificationsReply } from './subjects';
export { LIVE_NOTIFICATION_COMMANDS, liveNotificationCommandSchema } from './subjects';
export * as NotificationsEvents from './events';
