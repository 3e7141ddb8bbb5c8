import { NotificationsEvents } from '@doable/contracts-notifications';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { tellUsersChanged, UserProfileRepository } from '@doable/sync-domain';

/**
 * The notifications service created or changed live notifications for these users. An
 * incremental sync asks it only when something moved past the token (the reader's gate), so
 * each user's delivery count moves: their next sync that asks for live notifications carries
 * them (from the token's notification cursor). Users without a profile (yet) are skipped:
 * their first sync is a full one anyway.
 */
@Injectable()
export class NotificationsDeliveredConsumer {
  constructor(consumers: EventConsumers, profiles: UserProfileRepository) {
    consumers.on('mark-notified', NotificationsEvents.delivered, async ({ userIds }, tx) => {
      await profiles.markNotified(tx.manager, userIds);
      // Their open clients hear sync_needed too (the push channel), as for any change.
      await tellUsersChanged(tx, userIds);
    });
  }
}
