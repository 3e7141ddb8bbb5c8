import { AuthEvents } from '@doable/contracts-auth';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { NewAccounts } from '@doable/sync-domain';

/** A new account gets its sync profile and Inbox project, and the invitations that waited for its address (NewAccounts). */
@Injectable()
export class UserCreatedConsumer {
  constructor(consumers: EventConsumers, accounts: NewAccounts) {
    consumers.on('create-profile', AuthEvents.userCreated, (user, tx) => accounts.welcome(tx, user));
  }
}
