import { objectEventEntryId, SyncEvents } from '@doable/contracts-sync';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { isLogged } from './activity-logged';
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
    consumers.on('activity-log-v2', SyncEvents.objectEvents, async ({ events }, tx, envelope) => {
      const logged = events.flatMap((event, index) => (isLogged(event) ? [{ eventId: objectEventEntryId(envelope.id, index), event }] : []));
      await log.recordAll(tx.manager, logged);
    });
  }
}
