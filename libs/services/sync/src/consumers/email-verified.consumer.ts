import { AuthEvents } from '@doable/contracts-auth';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { NewAccounts, UserProfileRepository } from '@doable/sync-domain';

/**
 * An address proven after sign-up (issue #44: the confirmation link used, or a single sign-on
 * linked with proof): invitations by address and workspace domains match the user from now on,
 * and the invitations that waited for the address are offered. Only while the profile still has
 * that address: a later change is proven by its own confirmation (email-changed).
 */
@Injectable()
export class EmailVerifiedConsumer {
  constructor(consumers: EventConsumers, profiles: UserProfileRepository, accounts: NewAccounts) {
    consumers.on('address-proven', AuthEvents.emailVerified, async ({ userId, email }, tx) => {
      if (await profiles.markEmailVerified(tx.manager, userId, email)) await accounts.addressProven(tx, userId);
    });
  }
}
