export * as NotificationsSubjects from './subjects';
export type { LiveNotification, LiveNotificationsReply } from './subjects';
