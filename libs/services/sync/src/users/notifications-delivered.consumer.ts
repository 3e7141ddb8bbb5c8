import { NotificationsEvents } from '@doable/contracts-notifications';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { UserProfileRepository } from './user-profile.repository';

/**
 * The notifications service created or changed live notifications for these users. An
 * incremental sync asks it only when the user's high-water mark moved past the token (the
 * reader's gate), so the mark is raised: the next sync of each of them carries the
 * notifications (from the token's notification cursor). Users without a profile (yet) are
 * skipped: their first sync is a full one anyway.
 */
@Injectable()
export class NotificationsDeliveredConsumer {
  constructor(consumers: EventConsumers, profiles: UserProfileRepository) {
    consumers.on('raise-notified-high-water', NotificationsEvents.delivered, async ({ userIds }, tx) => {
      await profiles.raiseHighWaterOf(tx.manager, userIds);
    });
  }
}
