import { CreateNotificationsSchema1732190000200 } from './1732190000200-create-notifications-schema';

export const notificationsMigrations = [CreateNotificationsSchema1732190000200];
