import { AuthEvents } from '@doable/contracts-auth';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { NewAccounts, sharedProjectIds, tellUsersChanged, UserProfileRepository } from '@doable/sync-domain';

/**
 * An address confirmed on auth-oauth's pages: the profile takes it under a new version (its row
 * locked first, as every write to it), and the people the user shares projects with see it as a
 * collaborator change in their next sync. The new address confirmed the change, so it is proven
 * (issue #44): the invitations waiting for it are offered.
 */
@Injectable()
export class EmailChangedConsumer {
  constructor(consumers: EventConsumers, profiles: UserProfileRepository, accounts: NewAccounts) {
    consumers.on('keep-email', AuthEvents.emailChanged, async ({ userId, email }, tx) => {
      const profile = await profiles.lock(tx.manager, userId);
      if (!profile || profile.email === email) return;
      const [{ version }] = await tx.manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
      await profiles.update(tx.manager, userId, { email }, version, false);
      const told = await profiles.raiseHighWater(tx.manager, userId, await sharedProjectIds(tx.manager, userId), version);
      await tellUsersChanged(tx, told, version);
      if (await profiles.markEmailVerified(tx.manager, userId, email)) await accounts.addressProven(tx, userId);
    });
  }
}
