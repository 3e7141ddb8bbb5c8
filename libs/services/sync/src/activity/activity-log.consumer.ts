import { SyncEvents } from '@doable/contracts-sync';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { isLogged } from './activity-logged';
import { ActivityLogRepository } from './activity-log.repository';

/**
 * The activity log is made from sync's own outbox (SyncEvents.objectEvent), not by the commands:
 * each event it keeps (activity-logged.ts) is stored once, under its envelope id (EventConsumers
 * skips a redelivered id, and the table's unique event id would too).
 */
@Injectable()
export class ActivityLogConsumer {
  constructor(consumers: EventConsumers, log: ActivityLogRepository) {
    consumers.on('activity-log', SyncEvents.objectEvent, async (event, tx, envelope) => {
      if (isLogged(event)) await log.record(tx.manager, envelope.id, event);
    });
  }
}
