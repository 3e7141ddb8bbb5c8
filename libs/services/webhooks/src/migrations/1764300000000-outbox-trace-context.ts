import { outboxTraceContextMigration } from '@doable/shared-database';

/** The outbox keeps each event's traceparent, so its publish and consumers join the command's trace (issue #34). */
export const OutboxTraceContext1764300000000 = outboxTraceContextMigration('webhooks', 1764300000000);
