export { webhooksService } from './webhooks.service-definition';
export { webhooksMigrations } from './migrations';
