import { CreateNotificationsSchema1732190000200 } from './1732190000200-create-notifications-schema';
import { NotificationChangeSeq1732190001200 } from './1732190001200-notification-change-seq';

export const notificationsMigrations = [CreateNotificationsSchema1732190000200, NotificationChangeSeq1732190001200];
