export { notificationsService } from './notifications.service-definition';
// The schema's migrations, for tests that replay one over rows stored before it.
export { notificationsMigrations } from './migrations';
