export { notificationsService } from './notifications.service-definition';
