import { env } from '@doable/shared-config';
import { type ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { DeliveryMetrics } from './delivery-metrics';
import { DELIVERY_SETTINGS, type DeliverySettings, DeliveryWorker } from './delivery-worker';
import { webhooksMigrations } from './migrations';
import { WebhookConsumers } from './webhook.consumers';
import { WebhookRepository } from './webhook.repository';

const webhooksEnv = z.object({
  /** One POST to a receiver, connection to answer, in milliseconds. */
  WEBHOOKS_TIMEOUT_MS: env.positiveInt(10_000),
  /** The wait after a failed attempt (Todoist: 15 minutes). */
  WEBHOOKS_RETRY_SECONDS: env.positiveInt(900),
  /** Attempts after the first before a delivery is given up (Todoist: 3). */
  WEBHOOKS_MAX_RETRIES: z.coerce.number().int().min(0).max(100).default(3),
  /** How often due deliveries are looked for. */
  WEBHOOKS_POLL_MS: env.positiveInt(1000),
  /** Plain http receivers (a self-hosted network); otherwise https only. */
  WEBHOOKS_ALLOW_HTTP: env.bool(false),
  /** Loopback, link-local and private receivers; otherwise refused, including names resolving to them. */
  WEBHOOKS_ALLOW_PRIVATE: env.bool(false),
});

function webhooksModule(config: z.infer<typeof webhooksEnv>) {
  const settings: DeliverySettings = {
    policy: { allowHttp: config.WEBHOOKS_ALLOW_HTTP, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE },
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    retrySeconds: config.WEBHOOKS_RETRY_SECONDS,
    maxRetries: config.WEBHOOKS_MAX_RETRIES,
    pollMs: config.WEBHOOKS_POLL_MS,
  };
  @Module({ providers: [WebhookRepository, WebhookConsumers, DeliveryWorker, DeliveryMetrics, { provide: DELIVERY_SETTINGS, useValue: settings }] })
  class WebhooksModule {}
  return WebhooksModule;
}

/** Webhooks of OAuth applications: made from sync's object events, delivered with retries. */
export const webhooksService = {
  name: 'webhooks',
  defaultPort: 3008,
  env: webhooksEnv,
  database: { schema: 'webhooks', migrations: webhooksMigrations },
  imports: (config) => [webhooksModule(config)],
} satisfies ServiceDefinition<typeof webhooksEnv>;
