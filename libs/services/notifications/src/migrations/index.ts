import { CreateNotificationsSchema1732190000200 } from './1732190000200-create-notifications-schema';
import { NotificationChangeSeq1732190001200 } from './1732190001200-notification-change-seq';
import { LiveNotificationCommandLog1764090000200 } from './1764090000200-live-notification-command-log';
import { TeamsWorkspaceIdInteger1764090000300 } from './1764090000300-teams-workspace-id-integer';
import { MailQueue1764090000400 } from './1764090000400-mail-queue';
import { MailPreferences1764090000500 } from './1764090000500-mail-preferences';
import { OutboxTraceContext1764300000000 } from './1764300000000-outbox-trace-context';

export const notificationsMigrations = [
  CreateNotificationsSchema1732190000200,
  NotificationChangeSeq1732190001200,
  LiveNotificationCommandLog1764090000200,
  TeamsWorkspaceIdInteger1764090000300,
  MailQueue1764090000400,
  MailPreferences1764090000500,
  OutboxTraceContext1764300000000,
];
