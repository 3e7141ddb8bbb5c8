import { eventAsRead } from '@doable/contracts-common';
import { objectEventEntryId, objectEventHeads, readObjectEventFacts, SyncEvents } from '@doable/contracts-sync';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { isLogged, isLoggedKind } from './activity-logged';
import { ActivityLogRepository } from './activity-log.repository';

/**
 * The activity log is made from sync's own outbox (SyncEvents.objectEvents, and the v1 events a
 * previous release records), not by the commands: each event it keeps (activity-logged.ts) is
 * stored once, under its envelope id, or a v2 entry's id (EventConsumers skips a redelivered
 * envelope, and the table's unique event id would too). A v2 event's entries go in one statement.
 */
@Injectable()
export class ActivityLogConsumer {
  constructor(consumers: EventConsumers, log: ActivityLogRepository) {
    consumers.on('activity-log', SyncEvents.objectEvent, async (event, tx, envelope) => {
      if (isLogged(event)) await log.record(tx.manager, envelope.id, event);
    });
    // Each entry of a kind it keeps is checked (one malformed refuses the event, as before), less
    // the object's states (`object`, `previous`: the api/v1 task twice), which the log never stores.
    consumers.on('activity-log-v2', eventAsRead(SyncEvents.objectEvents, objectEventHeads), async ({ events }, tx, envelope) => {
      const logged = events.flatMap((entry, index) => {
        if (!isLoggedKind(entry)) return [];
        const event = readObjectEventFacts(entry);
        return isLogged(event) ? [{ eventId: objectEventEntryId(envelope.id, index), event }] : [];
      });
      await log.recordAll(tx.manager, logged);
    });
  }
}
