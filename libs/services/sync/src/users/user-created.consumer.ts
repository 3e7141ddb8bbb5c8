import { AuthEvents } from '@doable/contracts-auth';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { UserProfileRepository } from './user-profile.repository';

/** A new account gets its sync profile and Inbox project. */
@Injectable()
export class UserCreatedConsumer {
  constructor(consumers: EventConsumers, profiles: UserProfileRepository) {
    consumers.on('create-profile', AuthEvents.userCreated, async (user, tx) => {
      await profiles.createWithInbox(tx.manager, {
        id: user.userId,
        email: user.email,
        fullName: user.fullName,
        timezone: user.timezone,
        lang: user.lang,
        joinedAt: user.joinedAt,
        hasPassword: user.hasPassword,
      });
    });
  }
}
