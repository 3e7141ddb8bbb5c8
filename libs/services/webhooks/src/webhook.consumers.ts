import { AuthEvents, WEBHOOK_EVENT_NAMES } from '@doable/contracts-auth';
import { eventAsRead } from '@doable/contracts-common';
import { type ObjectEvent, objectEventHeads, readObjectEvent, SyncEvents } from '@doable/contracts-sync';
import { EventConsumers, type Tx } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker';
import { WebhookRepository } from './webhook.repository';

const EVENT_NAMES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_NAMES);

/**
 * The webhook events one object event is: `<object_type>:<event_type>`, and for a task completed
 * or reopened also `item:updated` (public-api-facts §1.5: its update_intent is item_completed or
 * item_uncompleted). Only the names webhooks know.
 */
export function webhookEventNames(event: Pick<ObjectEvent, 'objectType' | 'eventType'>): string[] {
  const names = [`${event.objectType}:${event.eventType}`];
  if (event.objectType === 'item' && (event.eventType === 'completed' || event.eventType === 'uncompleted')) names.push('item:updated');
  return names.filter((name) => EVENT_NAMES.has(name));
}

/** Each (user of an entry's audience, webhook event the entry is), once. */
function wantsOf(events: ReadonlyArray<Pick<ObjectEvent, 'objectType' | 'eventType' | 'initiatorId' | 'audience'>>): Array<{ userId: string; eventName: string }> {
  const wants = new Map<string, { userId: string; eventName: string }>();
  for (const event of events) {
    for (const eventName of webhookEventNames(event)) {
      for (const userId of event.audience ?? [event.initiatorId]) wants.set(`${userId} ${eventName}`, { userId, eventName });
    }
  }
  return [...wants.values()];
}

/**
 * What the webhooks service learns from others' outboxes, each in the consumer's transaction
 * (idempotent by event id): the apps' webhooks and authorisations from auth-oauth, and from
 * sync's object events and fired reminders the deliveries: one per app that wants the event,
 * for each user the change concerns (the event's audience: the members of a shared project, not
 * only the initiator) who authorised that app. Once a transaction that made deliveries has
 * committed, the delivery worker is woken, so a delivery does not wait for the worker's poll.
 */
@Injectable()
export class WebhookConsumers {
  constructor(consumers: EventConsumers, repository: WebhookRepository, worker: DeliveryWorker) {
    // After the commit, not inside the transaction: a look started before it would not see the rows.
    const wakeAfterCommit = (made: number, tx: Tx) => {
      if (made > 0) tx.afterCommit(() => worker.wake());
    };
    consumers.on('app-webhooks', AuthEvents.appWebhookConfigured, (app, tx) => repository.saveApp(tx.manager, app));
    consumers.on('app-authorizations', AuthEvents.appAuthorizationChanged, (change, tx) => repository.saveAuthorization(tx.manager, change));
    consumers.on('object-events', SyncEvents.objectEvent, async (event, tx) => {
      let made = 0;
      for (const eventName of webhookEventNames(event)) made += await repository.enqueue(tx.manager, eventName, event);
      wakeAfterCommit(made, tx);
    });
    // v2: a request's object events in one (sync records only these; v1 above is what a previous release records).
    // An entry is checked whole only when it makes a delivery (one malformed then refuses the
    // event, as before); the others are read no further than their names and audience.
    // Asked first, outside any transaction: a request by someone who authorised no app is taken
    // without one (no claim, no COMMIT), as most are.
    consumers.on(
      'object-events-v2',
      eventAsRead(SyncEvents.objectEvents, objectEventHeads),
      async ({ events }, tx) => {
        const made = await repository.enqueueAll(
          tx.manager,
          events.flatMap((event) => webhookEventNames(event).map((eventName) => ({ eventName, event }))),
          readObjectEvent,
        );
        wakeAfterCommit(made, tx);
      },
      { concerns: ({ events }, read) => repository.anyoneWants(read, wantsOf(events)) },
    );
    consumers.on('reminders-fired', SyncEvents.reminderFired, async (fired, tx) => {
      const made = await repository.enqueue(tx.manager, 'reminder:fired', {
        objectType: 'reminder',
        objectId: fired.reminderId,
        eventType: 'fired',
        initiatorId: fired.userId,
        eventDate: fired.firedAt,
        parentProjectId: fired.projectId,
        parentItemId: fired.itemId,
        workspaceId: null,
        extraData: {},
        object: fired.reminder,
        audience: [fired.userId],
      });
      wakeAfterCommit(made, tx);
    });
  }
}
