import { AuthEvents, WEBHOOK_EVENT_NAMES } from '@doable/contracts-auth';
import { SyncEvents } from '@doable/contracts-sync';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { WebhookRepository } from './webhook.repository';

const EVENT_NAMES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_NAMES);

/**
 * What the webhooks service learns from others' outboxes, each in the consumer's transaction
 * (idempotent by event id): the apps' webhooks and authorisations from auth-oauth, and from
 * sync's object events the deliveries, one per app that wants the event and was authorised by
 * the user who caused it (Todoist fires for the initiator's authorised apps; other members of a
 * shared project are not told through their own authorisations here).
 */
@Injectable()
export class WebhookConsumers {
  constructor(consumers: EventConsumers) {
    const repository = new WebhookRepository();
    consumers.on('app-webhooks', AuthEvents.appWebhookConfigured, (app, tx) => repository.saveApp(tx.manager, app));
    consumers.on('app-authorizations', AuthEvents.appAuthorizationChanged, (change, tx) => repository.saveAuthorization(tx.manager, change));
    consumers.on('object-events', SyncEvents.objectEvent, async (event, tx) => {
      const eventName = `${event.objectType}:${event.eventType}`;
      if (EVENT_NAMES.has(eventName)) await repository.enqueue(tx.manager, eventName, event);
    });
  }
}
