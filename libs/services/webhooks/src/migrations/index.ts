import { CreateWebhooksSchema1764070000100 } from './1764070000100-create-webhooks-schema';
import { OutboxTraceContext1764300000000 } from './1764300000000-outbox-trace-context';
import { DeliveryTraceContext1764300000100 } from './1764300000100-delivery-trace-context';

export const webhooksMigrations = [CreateWebhooksSchema1764070000100, OutboxTraceContext1764300000000, DeliveryTraceContext1764300000100];
