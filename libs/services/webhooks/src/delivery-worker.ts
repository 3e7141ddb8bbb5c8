import { AuthSubjects, type WebhookAddressPolicy } from '@doable/contracts-auth';
import { type ObjectQuery, SyncSubjects } from '@doable/contracts-sync';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database, PeriodicTask } from '@doable/shared-runtime';
import { ServiceClient } from '@doable/shared-transport';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Initiator, RESOURCE_OF, webhookBody } from './webhook-body';
import { type ClaimedDelivery, WebhookRepository } from './webhook.repository';
import { sendWebhook } from './webhook-sender';

export interface DeliverySettings {
  readonly policy: WebhookAddressPolicy;
  /** WEBHOOKS_TIMEOUT_MS: one POST, connection to answer. */
  readonly timeoutMs: number;
  /** WEBHOOKS_RETRY_SECONDS: the wait after a failed attempt. */
  readonly retrySeconds: number;
  /** WEBHOOKS_MAX_RETRIES: attempts after the first before a delivery is given up. */
  readonly maxRetries: number;
  /** WEBHOOKS_POLL_MS: how often due deliveries are looked for. */
  readonly pollMs: number;
}
export const DELIVERY_SETTINGS = Symbol('DELIVERY_SETTINGS');

/** Deliveries claimed per look, sent concurrently: one slow receiver holds one slot, not the queue. */
const CLAIM = 20;

/**
 * Sends due deliveries. The queue is the deliveries table: durable across restarts, shared by
 * replicas through SKIP LOCKED claims, retried on a schedule kept in the row. Nothing here runs
 * inside a transaction or a command: sync's commands never wait for a receiver. The first attempt
 * makes the body (the object from the event, the initiator read from sync), has auth-oauth sign it,
 * and POSTs it with the same X-Todoist-Delivery-ID every time.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly repository = new WebhookRepository();
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: Database,
    private readonly services: ServiceClient,
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.runOnce(), { intervalMs: this.settings.pollMs, logger, failure: 'webhook delivery look failed; retrying at the next look' });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): void {
    this.task.stop();
  }

  /** One look: claims the due deliveries and attempts each. Answers how many were attempted. */
  async runOnce(): Promise<number> {
    const manager = this.database.dataSource.manager;
    // The lease outlasts an attempt (timeout plus the RPCs around it), so no second replica takes it meanwhile.
    const lease = Math.ceil(this.settings.timeoutMs / 1000) + 30;
    const claimed = await this.repository.claimDue(manager, CLAIM, lease);
    await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    return claimed.length;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const manager = this.database.dataSource.manager;
    let outcome;
    try {
      const body = delivery.body ?? (await this.repository.fixBody(manager, delivery.deliveryId, await this.makeBody(delivery)));
      const { signature } = await this.services.request(AuthSubjects.signWebhook, { appId: delivery.appId, body });
      outcome = await sendWebhook(
        delivery.callbackUrl,
        body,
        {
          'Content-Type': 'application/json',
          'User-Agent': 'Todoist-Webhooks',
          'X-Todoist-Hmac-SHA256': signature,
          'X-Todoist-Delivery-ID': delivery.deliveryId,
        },
        this.settings,
      );
    } catch (err) {
      outcome = { ok: false, status: null, error: err instanceof Error ? err.message : String(err) };
    }
    if (outcome.ok) await this.repository.delivered(manager, delivery.deliveryId, outcome.status ?? 200);
    else {
      await this.repository.attemptFailed(manager, delivery.deliveryId, outcome, this.settings.retrySeconds, this.settings.maxRetries);
      this.logger.info({ deliveryId: delivery.deliveryId, appId: delivery.appId, attempt: delivery.attempt, status: outcome.status, error: outcome.error }, 'webhook attempt failed');
    }
  }

  /** The body as public-api-facts §1.5 shows it: the object as of the event, the initiator as now. */
  private async makeBody(delivery: ClaimedDelivery): Promise<string> {
    const principal = { userId: delivery.userId, scopes: ['data:read' as const], appId: null, tokenKind: 'personal' as const };
    const read = async (query: ObjectQuery) => {
      try {
        const reply = await this.services.request(SyncSubjects.objects, { principal, commands: [], query }, { resendable: true });
        return reply.objects[0] ?? null;
      } catch {
        // A deleted or no longer visible object: the event's own fields stand in.
        return null;
      }
    };
    const { event } = delivery;
    const resource = event.objectType in RESOURCE_OF ? RESOURCE_OF[event.objectType as keyof typeof RESOURCE_OF] : undefined;
    // The event's own snapshot; an event recorded before snapshots existed: the object as it is now.
    const object = event.object ?? (resource ? await read({ resource, id: event.objectId }) : null);
    const user = await this.services.request(SyncSubjects.objects, { principal: { ...principal, userId: event.initiatorId }, commands: [], query: { resource: 'user' } }, { resendable: true });
    const profile = user.objects[0] ?? {};
    const initiator: Initiator = {
      id: event.initiatorId,
      email: typeof profile['email'] === 'string' ? profile['email'] : '',
      full_name: typeof profile['full_name'] === 'string' ? profile['full_name'] : '',
      image_id: (profile['image_id'] as string | null | undefined) ?? null,
      is_premium: profile['is_premium'] === true,
    };
    return webhookBody(delivery.eventName, delivery.userId, event, object, initiator, delivery.version);
  }
}
