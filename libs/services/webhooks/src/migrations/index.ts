import { CreateWebhooksSchema1764070000100 } from './1764070000100-create-webhooks-schema';

export const webhooksMigrations = [CreateWebhooksSchema1764070000100];
