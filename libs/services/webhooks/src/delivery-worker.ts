import { AuthSubjects, type WebhookAddressPolicy } from '@doable/contracts-auth';
import type { Principal } from '@doable/contracts-common';
import { type ObjectOf, type ObjectQueryFor, type ObjectResource, SyncSubjects } from '@doable/contracts-sync';
import { contextFromTraceparent, inSpan, LOGGER, type Logger, markFailed, type Span, SpanKind } from '@doable/shared-logging';
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
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: Database,
    private readonly repository: WebhookRepository,
    private readonly services: ServiceClient,
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.task = new PeriodicTask(() => this.drain(), { intervalMs: this.settings.pollMs, logger, failure: 'webhook delivery look failed; retrying at the next look' });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): void {
    this.task.stop();
  }

  /**
   * Deliveries were just committed on this replica (the consumer's transaction): attempt them now
   * instead of at the next poll, which only remains for what a wake cannot cover (rows another
   * replica's consumer made, a wake lost to a crash, retries coming due). Wakes during a look
   * coalesce into one more look. Two looks never send one delivery twice either way: each claim
   * is an UPDATE of rows taken with SKIP LOCKED that moves them past a lease.
   */
  wake(): void {
    this.task.wake();
  }

  /** Looks until a look finds less than a full batch: a burst is sent at once, not CLAIM per poll. */
  private async drain(): Promise<void> {
    while ((await this.runOnce()) === CLAIM);
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

  /** One attempt as a client span in the trace of the command whose event queued it (the delivery's stored traceparent). */
  private attempt(delivery: ClaimedDelivery): Promise<void> {
    const parent = contextFromTraceparent(delivery.traceparent);
    const attributes = { 'doable.webhook.event': delivery.eventName, 'doable.webhook.app_id': delivery.appId, 'doable.webhook.attempt': delivery.attempt, 'server.address': hostOf(delivery.callbackUrl) };
    return inSpan(`webhook deliver ${delivery.eventName}`, { kind: SpanKind.CLIENT, parent, attributes }, (span) => this.send(delivery, span));
  }

  private async send(delivery: ClaimedDelivery, span: Span): Promise<void> {
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
    if (outcome.status !== null) span.setAttribute('http.response.status_code', outcome.status);
    if (!outcome.ok) markFailed(span, outcome.error ?? `HTTP ${outcome.status}`);
    if (outcome.ok) await this.repository.delivered(manager, delivery.deliveryId, outcome.status ?? 200);
    else {
      await this.repository.attemptFailed(manager, delivery.deliveryId, outcome, this.settings.retrySeconds, this.settings.maxRetries);
      this.logger.info({ deliveryId: delivery.deliveryId, appId: delivery.appId, attempt: delivery.attempt, status: outcome.status, error: outcome.error }, 'webhook attempt failed');
    }
  }

  /** The body as public-api-facts §1.5 shows it: the object as of the event, the initiator as now. */
  private async makeBody(delivery: ClaimedDelivery): Promise<string> {
    const principal: Principal = { userId: delivery.userId, scopes: ['data:read'], appId: null, tokenKind: 'personal' };
    const { event } = delivery;
    const resource = event.objectType in RESOURCE_OF ? RESOURCE_OF[event.objectType as keyof typeof RESOURCE_OF] : undefined;
    // The event's own snapshot; an event recorded before snapshots existed: the object as it is now.
    const object = event.object ?? (resource ? await this.currentObject(principal, { resource, id: event.objectId }) : null);
    const profile = await this.readFirst({ ...principal, userId: event.initiatorId }, { resource: 'user' });
    const initiator: Initiator = {
      id: event.initiatorId,
      email: profile?.email ?? '',
      full_name: profile?.full_name ?? '',
      image_id: profile?.image_id ?? null,
      is_premium: profile?.is_premium === true,
    };
    return webhookBody(delivery.eventName, delivery.userId, event, object, initiator, delivery.version);
  }

  /** The object as it is now; null when it is deleted or no longer visible (the event's own fields then stand in). */
  private async currentObject<R extends ObjectResource>(principal: Principal, query: ObjectQueryFor<R>): Promise<ObjectOf<R> | null> {
    try {
      return (await this.readFirst(principal, query)) ?? null;
    } catch {
      return null;
    }
  }

  /** The first object sync answers `query` with (typed by the query's resource), read as `principal`; a read is safe to resend. */
  private async readFirst<R extends ObjectResource>(principal: Principal, query: ObjectQueryFor<R>): Promise<ObjectOf<R> | undefined> {
    const request = { principal, commands: [], query };
    const reply = await this.services.request(SyncSubjects.objectsFor<R>(request), request, { resendable: true });
    return reply.objects[0];
  }
}

/** The callback's host only: its path or query may carry the app's own secret. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
}
